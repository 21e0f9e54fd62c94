// Every CLI command through the real binary: --help, exit codes, named errors with a fix, and the
// paths the walk-through does not take (decline, observe refusal, batch classify, verify on a
// tampered chain, init, override, rules).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commands } from '../packages/cli/src/commands/index.js';
import { agentHostAmong, procAncestors } from '../packages/cli/src/person.js';
import { BIN, git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

let repo: ReturnType<typeof scratchRepo>;
beforeAll(() => {
  repo = scratchRepo();
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));
/**
 * The built CLI under script(1), so stdin and stderr are a terminal, as for a human operator. A
 * terminal counts only when no agent host is among its ancestors, so these tests skip when the test
 * run itself is under one (an agent running the suite).
 */
function ttyRun(args: string[], cwd = repo.work): { code: number; out: string } {
  const line = [process.execPath, BIN, ...args].map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(' ');
  const env: NodeJS.ProcessEnv = { TOLLGATE_SESSION: 'cli' };
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDECODE') env[k] = v;
  const child = spawnSync('script', ['-qec', line, '/dev/null'], { cwd, env, encoding: 'utf8' });
  return { code: child.status ?? -1, out: child.stdout };
}
const underAgent = agentHostAmong(procAncestors() ?? []) !== undefined;
const run = (args: string[], env: Record<string, string> = {}, input?: string) =>
  tollgate(args, {
    cwd: repo.work,
    env: { TOLLGATE_SESSION: 'cli', ...env },
    ...(input !== undefined ? { input } : {}),
  });

describe('help and usage errors', () => {
  it('every registered command answers --help with its usage', async () => {
    for (const { name } of commands) {
      const help = await run([name, '--help']);
      expect(help.code, name).toBe(0);
      expect(help.stdout, name).toMatch(/Usage: tollgate/);
    }
    const top = await run(['--help']);
    expect(top.stdout).toContain('classify');
  });

  it('names an unknown command, an unknown option and a missing command, with the fix', async () => {
    const unknown = await run(['frobnicate', '--json']);
    expect(unknown.code).toBe(1);
    expect(lastJson(unknown.stdout)).toMatchObject({
      error: { code: 'usage', message: 'unknown command "frobnicate"' },
    });
    const option = await run(['check', '--bogus', '--', 'ls']);
    expect(option).toMatchObject({ code: 1 });
    expect(option.stderr).toContain('unknown option --bogus for tollgate check');
    expect(option.stderr).toContain('fix: see tollgate check --help');
    const none = await run(['check', '--json']);
    expect(lastJson(none.stdout)).toMatchObject({ error: { code: 'usage', message: 'no command given' } });
    const empty = await run(['check', '--command', '  ']);
    expect(empty.stderr).toContain('--command is empty');
  });

  it('an invalid config file is named, with the fix', async () => {
    const dir = join(repo.root, 'badconfig');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tollgate.config.yaml'), 'mode: sometimes\n');
    const bad = await tollgate(['check', '--', 'ls'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/tollgate\.config\.yaml at \/mode: .* must be one of "enforce", "observe"/);
    expect(bad.stderr).toContain('fix: fix tollgate.config.yaml');
  });
});

describe('classify', () => {
  it('prints the contract fields, and --batch answers one line per input line', async () => {
    const one = lastJson(
      (await run(['classify', '--json', '--', 'git', 'push', '--force', 'origin', 'main'])).stdout,
    );
    expect(one).toMatchObject({ irreversible: true, gated: true, class: 'irreversible' });
    const input = [
      '{"command": "ls -la"}',
      '{"command": "rm -rf /"}',
      'not json',
      '{"cmd": 1}',
      '{"command": "eval $X"}',
    ].join('\n');
    const batch = await run(['classify', '--batch'], {}, `${input}\n`);
    expect(batch.code).toBe(0);
    const lines = batch.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.gated)).toEqual([false, true, true, true, true]);
    expect(lines[2].error).toMatchObject({ code: 'input_malformed_json', line: 3 });
    expect(lines[4].class).toBe('unknown-dynamic');
  });
});

describe('observe', () => {
  it('refuses a gated command and does not run it', async () => {
    const victim = join(repo.work, 'keep-me');
    writeFileSync(victim, 'x');
    const refused = await run(['observe', '--json', '--', 'git', 'clean', '-fdx']);
    expect(refused.code).toBe(2);
    expect(lastJson(refused.stdout)).toMatchObject({ error: { code: 'not_a_read' }, class: 'irreversible' });
    expect(existsSync(victim)).toBe(true);
  });

  it("returns the read command's own exit code", async () => {
    const missing = await run(['observe', '--', 'git', 'rev-parse', 'no-such-ref']);
    expect(missing.code).toBe(128);
  });
});

describe('predict, decline, run', () => {
  it('an invalid prediction exits 2 with its reasons, and nothing is recorded', async () => {
    const bad = await run([
      'predict',
      '--for',
      'git clean -fdx',
      '--claim',
      'git status --short',
      '--op',
      'contains',
      '--value',
      'x',
      '--evidence',
      'git status',
      '--quote',
      'never observed',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('[evidence_not_observed]');
    const doc = await run(['predict', '--for', 'git clean -fdx', '--json-doc', '{"claims": 1']);
    expect(doc.code).toBe(1);
    expect(doc.stderr).toContain('not valid JSON');
  });

  it('a decline makes run exit 3 without running the command', async () => {
    const marker = join(repo.work, 'untracked.txt');
    writeFileSync(marker, 'precious');
    const seen = await run(['observe', '--', 'git', 'status', '--short']);
    const id = /observation (\w{26})/.exec(seen.stderr)?.[1] ?? '';
    const filed = await run([
      'decline',
      '--for',
      'git clean -fdx',
      '--irreducible',
      'whether untracked.txt matters',
      '--would-change-my-mind',
      'the owner says it can go',
      '--attempted-observation',
      id,
    ]);
    expect(filed.code).toBe(0);
    const ran = await run(['run', '--', 'git', 'clean', '-fdx']);
    expect(ran.code).toBe(3);
    expect(ran.stdout).toContain('declined');
    expect(readFileSync(marker, 'utf8')).toBe('precious');
  });

  it('run passes an ungated command through with its own exit code', async () => {
    const ok = await run(['run', '--', 'git', 'status', '--short']);
    expect(ok.code).toBe(0);
    const fails = await run(['run', '--command', 'exit 7']);
    expect(fails.code).toBe(7);
  });
});

describe('audit', () => {
  it('lists with filters, exports JSON lines, and names a missing row', async () => {
    const all = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as { seq: number }[];
    expect(all.length).toBeGreaterThan(2);
    const two = JSON.parse((await run(['audit', 'list', '--json', '--limit', '2'])).stdout) as {
      seq: number;
    }[];
    expect(two.map((r) => r.seq)).toEqual(all.slice(-2).map((r) => r.seq));
    const future = JSON.parse(
      (await run(['audit', 'list', '--json', '--since', '2999-01-01T00:00:00Z'])).stdout,
    );
    expect(future).toEqual([]);
    const exported = (await run(['audit', 'export'])).stdout.trim().split('\n');
    expect(exported).toHaveLength(all.length);
    const missing = await run(['audit', 'show', '01ZZZZZZZZZZZZZZZZZZZZZZZZ']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no audit row');
    const since = await run(['audit', 'list', '--since', 'yesterday']);
    expect(since.stderr).toContain('neither an ISO date-time nor a duration');
  });

  it('verify exits 1 naming the first row that was edited', async () => {
    const copy = join(repo.root, 'tampered');
    mkdirSync(copy, { recursive: true });
    const db = join(copy, 't.db');
    const env = { TOLLGATE_DB: db };
    await tollgate(['check', '--', 'git', 'push', '-f', 'origin', 'main'], { cwd: repo.work, env });
    await tollgate(['check', '--', 'git', 'reset', '--hard'], { cwd: repo.work, env });
    expect((await tollgate(['audit', 'verify'], { cwd: repo.work, env })).code).toBe(0);
    const raw = new Sqlite(db);
    const row = raw.prepare('SELECT id, doc FROM audit WHERE seq = 1').get() as { id: string; doc: string };
    // Someone with the file in hand: drop the append-only trigger, then edit a row.
    raw.exec('DROP TRIGGER audit_no_update');
    raw.prepare('UPDATE audit SET doc = ? WHERE seq = 1').run(row.doc.replace('"rejected"', '"dispatch"'));
    raw.close();
    const broken = await tollgate(['audit', 'verify', '--json'], { cwd: repo.work, env });
    expect(broken.code).toBe(1);
    expect(lastJson(broken.stdout)).toMatchObject({ ok: false, broken_at: { seq: 1 } });
  });

  it('report groups per agent and per rule', async () => {
    const report = lastJson((await run(['audit', 'report', '--json'])).stdout) as {
      by_rule: Record<string, unknown>;
    };
    expect(Object.keys(report.by_rule)).toContain('git.clean.force');
  });
});

describe('rules', () => {
  it('lists the rules in force and tests a command against them', async () => {
    const rules = JSON.parse((await run(['rules', 'list', '--json'])).stdout) as { id: string }[];
    expect(rules.map((r) => r.id)).toContain('git.push.force');
    const tested = lastJson(
      (await run(['rules', 'test', '--json', '--', 'git', 'push', '--force', 'origin', 'main'])).stdout,
    );
    expect(tested).toMatchObject({
      class: 'irreversible',
      requirements: { probes: ['git ls-remote origin'] },
    });
  });
});

describe('override', () => {
  it.skipIf(underAgent)(
    'needs an operator, a reason, a ttl and a scope, and lets the scoped call through, audited',
    async () => {
      expect((await run(['override', '--ttl', '5m', '--session', 'ops'])).stderr).toContain('needs --reason');
      expect((await run(['override', '--reason', 'x', '--session', 'ops', '--ttl', '9d'])).stderr).toContain(
        'between 1s and 24h',
      );
      const grant = [
        'override',
        '--reason',
        'rewrite approved',
        '--ttl',
        '5m',
        '--for',
        'git push --force origin main',
        '--session',
        'ops',
        '--operator',
        'alice',
      ];
      // At a real terminal (script(1) gives the process a pty) a human may grant it with --operator.
      const atTty = ttyRun([...grant.slice(0, -2)]);
      expect(atTty.code).toBe(1);
      expect(atTty.out).toContain('--operator');
      const granted = ttyRun(grant);
      expect(granted.out).toContain('by alice');
      expect(granted.code).toBe(0);
      const checked = lastJson(
        (
          await run(['check', '--json', '--', 'git', 'push', '--force', 'origin', 'main'], {
            TOLLGATE_SESSION: 'ops',
          })
        ).stdout,
      );
      expect(checked).toMatchObject({ outcome: 'dispatch', reasons: [{ code: 'override_applied' }] });
      const rows = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as {
        kind: string;
        override?: { operator: string };
      }[];
      expect(rows.find((r) => r.kind === 'override')?.override?.operator).toBe('alice');
    },
  );
});

describe('init claude-code pins the project', () => {
  it("writes a hook command that uses this project's config and store from any directory", async () => {
    const dir = join(repo.root, 'pinned');
    mkdirSync(join(dir, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'tollgate.config.yaml'), 'mode: enforce\n');
    writeFileSync(join(dir, 'sub', 'tollgate.config.yaml'), 'mode: observe\n');
    expect((await tollgate(['init', 'claude-code'], { cwd: dir })).code).toBe(0);
    const settings = JSON.parse(readFileSync(join(dir, '.claude', 'settings.json'), 'utf8'));
    const command = settings.hooks.PreToolUse[0].hooks[0].command as string;
    expect(command).toContain(`TOLLGATE_CONFIG=${join(dir, 'tollgate.config.yaml')} `);
    const input = JSON.stringify({
      session_id: 'pin-1',
      cwd: join(dir, 'sub'),
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      tool_input: { command: 'git push --force origin main' },
    });
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env))
      if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDE_PROJECT_DIR') env[k] = v;
    // Started in sub/, whose own config says observe: the pinned project config still enforces.
    const out = spawnSync('/bin/sh', ['-c', command], {
      cwd: join(dir, 'sub'),
      env,
      input,
      encoding: 'utf8',
    });
    expect(
      lastJson<{ hookSpecificOutput: { permissionDecision?: string } }>(out.stdout).hookSpecificOutput
        .permissionDecision,
    ).toBe('deny');
  });
});

describe('override needs a human', () => {
  const grant = ['override', '--reason', 'x', '--ttl', '24h', '--rule', 'git.push.force'];

  it('refuses a non-interactive caller even with --operator when no operator tokens are configured', async () => {
    const refused = await run([...grant, '--operator', 'me']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not an interactive terminal');
    expect(refused.stderr).toContain('TOLLGATE_OPERATOR_TOKEN');
    const rows = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as {
      kind: string;
      override?: { reason: string };
    }[];
    expect(rows.filter((r) => r.kind === 'override' && r.override?.reason === 'x')).toHaveLength(0);
  });

  it('accepts an operator token of the config and records its name; refuses a wrong one', async () => {
    const dir = join(repo.root, 'ops-config');
    mkdirSync(dir, { recursive: true });
    const config = join(dir, 'tollgate.config.yaml');
    writeFileSync(
      config,
      'tokens:\n  - { token: "operator-secret-0123456789", agent: oncall, operator: true }\n  - { token: "agent-secret-0123456789ab", agent: bot }\n',
    );
    const env = { TOLLGATE_CONFIG: config, TOLLGATE_DB: join(dir, 'db.sqlite') };
    const wrong = await run(grant, { ...env, TOLLGATE_OPERATOR_TOKEN: 'agent-secret-0123456789ab' });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('does not hold an operator token');
    const missing = await run([...grant, '--operator', 'me'], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('TOLLGATE_OPERATOR_TOKEN');
    const ok = await run(grant, { ...env, TOLLGATE_OPERATOR_TOKEN: 'operator-secret-0123456789' });
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('by oncall');
  });
});

describe('init', () => {
  it('writes a starter config once, keeps it after, and overwrites it only for a person', async () => {
    const dir = join(repo.root, 'fresh');
    mkdirSync(dir);
    // No agent host here (HOME is empty, PATH holds only node): only the config is written.
    const env = { HOME: join(dir, 'home'), PATH: dirname(process.execPath) };
    expect((await tollgate(['init'], { cwd: dir, env })).code).toBe(0);
    const config = join(dir, 'tollgate.config.yaml');
    expect(readFileSync(config, 'utf8')).toContain('mode: enforce');
    writeFileSync(config, 'mode: observe\n');
    const again = await tollgate(['init'], { cwd: dir, env });
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('(kept)');
    expect(again.stdout).toContain('no agent host detected');
    const force = await tollgate(['init', '--force'], { cwd: dir, env });
    expect(force.code).toBe(1);
    expect(force.stderr).toContain('operator-only');
    expect(readFileSync(config, 'utf8')).toBe('mode: observe\n');
    expect((await tollgate(['check', '--', 'ls'], { cwd: dir })).code).toBe(0);
  });

  it.skipIf(underAgent)(
    'merges the Claude Code hooks without clobbering existing hooks and permissions, idempotently',
    async () => {
      const dir = join(repo.root, 'claude');
      mkdirSync(join(dir, '.claude'), { recursive: true });
      const settings = join(dir, '.claude', 'settings.json');
      const existing = {
        permissions: { allow: ['Bash(npm test)'], deny: ['Read(./.env)'] },
        hooks: {
          PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'prettier-check' }] }],
        },
        model: 'opus',
      };
      writeFileSync(settings, JSON.stringify(existing));
      // Changing an existing settings file is for a person: a script (or an agent) is refused.
      const script = await tollgate(['init', 'claude-code'], { cwd: dir });
      expect(script.code).toBe(1);
      expect(script.stderr).toContain('operator-only');
      expect(JSON.parse(readFileSync(settings, 'utf8'))).toEqual(existing);
      expect(ttyRun(['init', 'claude-code'], dir).code).toBe(0);
      expect(ttyRun(['init', 'claude-code'], dir).code).toBe(0);
      const merged = JSON.parse(readFileSync(settings, 'utf8'));
      expect(merged.permissions).toEqual(existing.permissions);
      expect(merged.model).toBe('opus');
      expect(merged.hooks.PreToolUse).toHaveLength(2);
      expect(merged.hooks.PreToolUse[0]).toEqual(existing.hooks.PreToolUse[0]);
      const ours = merged.hooks.PreToolUse[1];
      expect(ours.matcher).toContain('Bash');
      expect(ours.hooks[0]).toMatchObject({ type: 'command', onFailure: 'block', timeout: 30 });
      expect(ours.hooks[0].command).toMatch(/tollgate\.js hook claude-code$/);
      // The store lives outside the project; the hook pins its absolute path and its store id.
      const info = lastJson<{ store: string; pinned: { store_id: string } }>(
        (await tollgate(['store', 'info', '--json'], { cwd: dir })).stdout,
      );
      expect(info.store.startsWith(dir)).toBe(false);
      expect(ours.hooks[0].command).toContain(`TOLLGATE_DB=${info.store} `);
      expect(ours.hooks[0].command).toContain(`TOLLGATE_STORE_ID=${info.pinned.store_id} `);
      expect(merged.hooks.PostToolUse[0].matcher).toBe(
        '^(Bash|Read|Grep|Glob|LS|NotebookRead|Write|Edit|MultiEdit|NotebookEdit|WebFetch|WebSearch|mcp__.*)$',
      );
      expect(existsSync(join(dir, '.tollgate'))).toBe(false);
    },
  );

  it.skipIf(underAgent)('refuses to touch a settings file that is not JSON', async () => {
    const dir = join(repo.root, 'broken-claude');
    mkdirSync(join(dir, '.claude'), { recursive: true });
    const settings = join(dir, '.claude', 'settings.json');
    writeFileSync(settings, '{ "hooks": ');
    const refused = ttyRun(['init', 'claude-code'], dir);
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('is not valid JSON');
    expect(readFileSync(settings, 'utf8')).toBe('{ "hooks": ');
  });
});

it('the scratch repository is a real one', () => {
  expect(git(repo.work, 'branch', '--show-current')).toBe('main');
});
