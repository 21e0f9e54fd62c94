// One `tollgate hook claude-code` process end to end (spawn, load the bundle, open the SQLite store,
// decide, write the audit row, answer), against `node -e 0` measured in the same run, alternating
// them so machine load affects all alike. Measured as `tollgate init claude-code` installs it: the
// command init writes into .claude/settings.json is run as its two halves — node from the hook's
// start-up snapshot with the blob, V8 flags and pins init chose, and the plain start (bundle through
// V8's code cache) — and whole through /bin/sh (the plain start only if node refuses the blob).
// Peak RSS from /usr/bin/time where it exists.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scaled } from './mode.mjs';
import { percentile } from './stats.mjs';

const BIN = new URL('../packages/cli/bin/tollgate.js', import.meta.url).pathname;
const RUNS = scaled(25, 3);
const TIME = '/usr/bin/time';

const payload = (dir, command) =>
  JSON.stringify({
    session_id: 'bench',
    transcript_path: '/dev/null',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_bench',
  });

function wall(args, input, cwd, program = process.execPath, env = process.env) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(program, args, { input, cwd, encoding: 'utf8', env });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

function peakRssMb(args, input, cwd, env = process.env) {
  if (!existsSync(TIME)) return undefined;
  const r = spawnSync(TIME, ['-f', '%M', process.execPath, ...args], { input, cwd, encoding: 'utf8', env });
  const kb = Number(r.stderr.trim().split('\n').pop());
  return Number.isFinite(kb) ? kb / 1024 : undefined;
}

/**
 * `tollgate init claude-code` in DIR, and the command it installed for PreToolUse: the line whole, and
 * its two runs (`ENV… node ARGS`, the snapshot first) as env and node's arguments.
 */
function initClaudeCode(dir) {
  execFileSync(process.execPath, [BIN, 'init', 'claude-code', '--json'], { cwd: dir, stdio: 'ignore' });
  const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
  const line = settings.hooks.PreToolUse[0].hooks[0].command;
  const runs = line.split(/; rc=\$\?; .*exit \$rc; /);
  if (runs.length !== 2 || !runs[0].includes('--snapshot-blob'))
    throw new Error(`init did not install the start-up snapshot form: ${line}`);
  const split = (run) => {
    // Paths under the bench's scratch directory and the pins need no quoting; a quoted word would.
    if (/['"\\$`]/.test(run)) throw new Error(`cannot split ${run}`);
    const words = run.split(' ');
    const env = { ...process.env };
    while (/^[A-Z_][A-Z0-9_]*=/.test(words[0] ?? '')) {
      const word = words.shift();
      env[word.slice(0, word.indexOf('='))] = word.slice(word.indexOf('=') + 1);
    }
    if (words.shift() !== process.execPath) throw new Error(`init named another node: ${run}`);
    return { env, args: words };
  };
  return { line, fast: split(runs[0]), plain: split(runs[1]) };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-hook-bench-'));
  try {
    execFileSync('git', ['init', '-q', dir]);
    // A script the command runs: the hook reads it and judges what it runs (60 lines of reads).
    mkdirSync(join(dir, 'scripts'));
    const lines = Array.from({ length: 20 }, (_, i) => [
      `git log --oneline -n ${i + 1} -- src/module${i}.ts`,
      `grep -rn "TODO(${i})" src | head -5`,
      `test -f build/out${i}.js && wc -l build/out${i}.js`,
    ]).flat();
    writeFileSync(join(dir, 'scripts', 'check.sh'), `#!/bin/sh\nset -e\n${lines.join('\n')}\n`);
    const cases = {
      pass: payload(dir, 'git status --short'),
      rejected: payload(dir, 'git push --force origin main'),
      script: payload(dir, 'bash scripts/check.sh'),
    };
    const installed = initClaudeCode(dir);
    const { env: pinned, args: hookArgs } = installed.fast;
    const { env: plainEnv, args: plainArgs } = installed.plain;
    const line = installed.line;
    // First call creates and migrates the store (and writes the code cache); measure the steady state.
    wall(plainArgs, cases.pass, dir, process.execPath, plainEnv);
    wall(plainArgs, cases.pass, dir, process.execPath, plainEnv);
    const times = {
      node: [],
      pass: [],
      rejected: [],
      script: [],
      plainPass: [],
      plainRejected: [],
      line: [],
    };
    for (let i = 0; i < RUNS; i++) {
      times.node.push(wall(['-e', '0'], '', dir).ms);
      times.pass.push(wall(hookArgs, cases.pass, dir, process.execPath, pinned).ms);
      times.rejected.push(wall(hookArgs, cases.rejected, dir, process.execPath, pinned).ms);
      times.script.push(wall(hookArgs, cases.script, dir, process.execPath, pinned).ms);
      times.plainPass.push(wall(plainArgs, cases.pass, dir, process.execPath, plainEnv).ms);
      times.plainRejected.push(wall(plainArgs, cases.rejected, dir, process.execPath, plainEnv).ms);
      times.line.push(wall(['-c', line], cases.pass, dir, '/bin/sh').ms);
    }
    for (const [args, program, env] of [
      [hookArgs, process.execPath, pinned],
      [plainArgs, process.execPath, plainEnv],
      [['-c', line], '/bin/sh', process.env],
    ]) {
      const check = JSON.parse(wall(args, cases.rejected, dir, program, env).stdout);
      if (check.hookSpecificOutput?.permissionDecision !== 'deny')
        throw new Error(`the gated case was not denied by ${args.join(' ')}`);
    }
    const med = (xs) =>
      percentile(
        [...xs].sort((a, b) => a - b),
        50,
      );
    const base = med(times.node);
    const rss = {
      node: peakRssMb(['-e', '0'], '', dir),
      pass: peakRssMb(hookArgs, cases.pass, dir, pinned),
      rejected: peakRssMb(hookArgs, cases.rejected, dir, pinned),
    };
    const row = (name, value, target) => ({
      name,
      value,
      unit: 'ms',
      baseline: base,
      ratio: value / base,
      target,
    });
    const rssRow = (name, value) => ({
      name,
      value,
      unit: 'MB',
      baseline: rss.node,
      ratio: value && rss.node ? value / rss.node : undefined,
      target: '≤ 80 MB',
    });
    return {
      title: `tollgate hook claude-code, one process end to end (median of ${RUNS})`,
      rows: [
        { name: 'baseline: node -e 0', value: base, unit: 'ms' },
        row('PreToolUse, Bash read (no objection), from the snapshot', med(times.pass), '≤ 1.5×'),
        row(
          'PreToolUse, Bash force-push (deny with rails), from the snapshot',
          med(times.rejected),
          '≤ 1.5×',
        ),
        row(
          'PreToolUse, Bash runs a 60-line script the hook reads and judges, from the snapshot',
          med(times.script),
          '≤ 1.5×',
        ),
        row('PreToolUse, Bash read, plain start (code cache)', med(times.plainPass), 'report'),
        row('PreToolUse, Bash force-push, plain start (code cache)', med(times.plainRejected), 'report'),
        row('PreToolUse, Bash read, the installed line through /bin/sh', med(times.line), 'report'),
        rssRow('peak RSS, Bash read', rss.pass),
        rssRow('peak RSS, force-push denied', rss.rejected),
      ],
      notes: rss.pass === undefined ? ['/usr/bin/time not found: peak RSS not measured.'] : [],
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
