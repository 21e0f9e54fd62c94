// One install, end to end through the real binary, on copies of realistic host configs in a temp
// project with HOME and the state directory in temp dirs: init --yes --hosts … → doctor (exit 0: installed,
// current and enforcing for every host, by a live deny) → changes doctor must name → uninstall → every file
// byte-identical to the original. Plus: init is refused for an agent, --dry-run writes nothing,
// a broken file is refused untouched, and the agent cannot run init or uninstall through the hook.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentHostAmong, procAncestors } from '../packages/cli/src/person.js';
import { BIN, lastJson, tollgate } from '../packages/cli/src/testing/harness.js';

const FIXTURES = join(import.meta.dirname, 'fixtures', 'host-configs');
const TOKEN = 'operator-secret-install-0123456789';
const ALL = 'claude-code,codex,gemini,cursor,copilot';

/** Where each host's fixture goes in the project, and the files that must come back byte for byte. */
const PLACES: [string, string][] = [
  ['claude-code/settings.json', '.claude/settings.json'],
  ['codex/hooks.json', '.codex/hooks.json'],
  ['gemini/settings.json', '.gemini/settings.json'],
  ['cursor/hooks.json', '.cursor/hooks.json'],
  ['copilot/security.json', '.github/hooks/security.json'],
];

interface Report {
  ok: boolean;
  hosts: {
    host: string;
    ok: boolean;
    installed: { ok: boolean; problems: string[] };
    current: { ok: boolean; problems: string[] };
    enforcing: { ok: boolean; problems: string[] };
  }[];
}

let root: string;
let project: string;
let env: Record<string, string>;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'tollgate-install-'));
  project = join(root, 'project');
  mkdirSync(join(root, 'home'), { recursive: true });
  env = {
    HOME: join(root, 'home'),
    XDG_STATE_HOME: join(root, 'state'),
    // Only the directory of this node: no agent host program is on PATH here.
    PATH: dirname(process.execPath),
  };
  for (const [from, to] of PLACES) {
    mkdirSync(dirname(join(project, to)), { recursive: true });
    copyFileSync(join(FIXTURES, from), join(project, to));
  }
  writeFileSync(
    join(project, 'tollgate.config.yaml'),
    `mode: enforce\ntokens:\n  - { token: "${TOKEN}", agent: oncall, operator: true }\n`,
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const run = (args: string[], extra: Record<string, string> = {}) =>
  tollgate(args, { cwd: project, env: { ...env, ...extra } });
const asOperator = (args: string[]) => run(args, { TOLLGATE_OPERATOR_TOKEN: TOKEN });
const read = (rel: string) => readFileSync(join(project, rel));
const snapshot = () => {
  const files: Record<string, Buffer> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, name.name);
      if (name.isDirectory()) walk(path);
      else files[path.slice(project.length + 1)] = readFileSync(path);
    }
  };
  walk(project);
  return files;
};
describe('tollgate init → doctor → uninstall', () => {
  let original: Record<string, Buffer>;

  it('detects the hosts by their project directories, and --dry-run writes nothing', async () => {
    original = snapshot();
    const dry = await run(['init', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    const plan = lastJson<{
      hosts: { host: string; action: string; detected_by: string[]; diff?: string }[];
    }>(dry.stdout);
    expect(plan.hosts.map((h) => [h.host, h.action])).toEqual([
      ['claude-code', 'update'],
      ['codex', 'update'],
      ['gemini', 'update'],
      ['cursor', 'update'],
      ['copilot', 'create'],
    ]);
    expect(plan.hosts[0]?.detected_by).toEqual(['project .claude']);
    expect(plan.hosts[1]?.diff).toMatch(/^\+.*tollgate\.js hook codex/m);
    expect(snapshot()).toEqual(original);
  });

  it('refuses without a person or without a confirmation, and changes nothing', async () => {
    const agent = await run(['init', '--yes', '--hosts', ALL]);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('operator-only');
    const unconfirmed = await asOperator(['init', '--hosts', ALL]);
    expect(unconfirmed.code).toBe(1);
    expect(unconfirmed.stderr).toContain('--yes');
    expect(snapshot()).toEqual(original);
  });

  it('installs into every host, keeping their other settings, and a second run changes nothing', async () => {
    const first = await asOperator(['init', '--yes', '--hosts', ALL, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const settings = JSON.parse(read('.claude/settings.json').toString());
    expect(settings.permissions.deny).toEqual(['Read(./.env)']);
    expect(settings.hooks.Stop).toHaveLength(1);
    expect(settings.hooks.PreToolUse[0].hooks[0].command).toContain('prettier');
    expect(settings.hooks.PreToolUse[1].hooks[0].command).toMatch(
      /TOLLGATE_STORE_ID=\S+ .*bin\/tollgate\.js hook claude-code$/,
    );
    const copilot = JSON.parse(read('.github/hooks/tollgate.json').toString());
    expect(copilot.version).toBe(1);
    expect(copilot.hooks.preToolUse[0]).toMatchObject({ type: 'command', timeoutSec: 30 });
    expect(copilot.hooks.preToolUse[0].bash).toMatch(/hook copilot$/);
    const cursor = JSON.parse(read('.cursor/hooks.json').toString());
    expect(cursor.hooks.beforeShellExecution).toHaveLength(2);
    expect(cursor.hooks.beforeShellExecution[1]).toMatchObject({ failClosed: true });
    expect(JSON.parse(read('.gemini/settings.json').toString()).hooks.BeforeTool[1].hooks[0].timeout).toBe(
      30_000,
    );
    // The backups live under the state directory, not beside the files.
    expect(existsSync(join(project, '.claude', 'settings.json.tollgate-backup'))).toBe(false);
    const installed = snapshot();
    const again = await asOperator(['init', '--yes', '--hosts', ALL, '--json']);
    expect(again.code).toBe(0);
    expect(
      lastJson<{ hosts: { action: string }[] }>(again.stdout).hosts.every((h) => h.action === 'unchanged'),
    ).toBe(true);
    expect(snapshot()).toEqual(installed);
  });

  it('doctor: installed, current and enforcing, with a live deny from the installed command', async () => {
    const out = await run(['doctor', '--json']);
    const report = lastJson<Report>(out.stdout);
    expect(report.hosts.map((h) => h.host)).toEqual(ALL.split(','));
    for (const h of report.hosts) {
      expect(h.installed, h.host).toEqual({ ok: true, problems: [] });
      expect(h.current, h.host).toEqual({ ok: true, problems: [] });
      expect(h.enforcing, h.host).toEqual({ ok: true, problems: [] });
    }
    expect(out.code).toBe(0);
    const claude = await run(['doctor', '--hosts', 'claude-code']);
    expect(claude.code, claude.stdout).toBe(0);
    expect(claude.stdout).toMatch(/Claude Code\s+yes\s+yes\s+yes/);
  });

  it('the agent cannot run init or uninstall through the installed Claude Code hook; doctor it may', async () => {
    const settings = JSON.parse(read('.claude/settings.json').toString());
    const command = settings.hooks.PreToolUse[1].hooks[0].command as string;
    const ask = (bash: string) => {
      const out = spawnSync('/bin/sh', ['-c', command], {
        cwd: project,
        env: { ...env, PATH: `${dirname(process.execPath)}:/usr/bin:/bin` },
        input: JSON.stringify({
          session_id: 'attack',
          cwd: project,
          hook_event_name: 'PreToolUse',
          tool_name: 'Bash',
          tool_input: { command: bash },
          tool_use_id: `toolu_${Math.random()}`,
        }),
        encoding: 'utf8',
      });
      return lastJson<{
        hookSpecificOutput: { permissionDecision?: string; permissionDecisionReason?: string };
      }>(out.stdout).hookSpecificOutput;
    };
    for (const bash of [
      `${process.execPath} ${BIN} uninstall --yes`,
      `TOLLGATE_OPERATOR_TOKEN=guess npx -y tollgate uninstall --hosts claude-code --yes`,
      `${process.execPath} ${BIN} init --yes --hosts claude-code`,
      `script -qc 'tollgate init --yes' /dev/null`,
    ]) {
      const answer = ask(bash);
      expect(answer.permissionDecision, bash).toBe('deny');
      expect(answer.permissionDecisionReason, bash).toContain('for human operators');
    }
    // doctor only reads: the operator-command denial does not apply to it.
    for (const bash of ['tollgate doctor --json', 'npx -y tollgate doctor --hosts claude-code'])
      expect(ask(bash).permissionDecision, bash).toBeUndefined();
  });

  it('doctor names what breaks the gate: observe mode, a missing entry, hooks switched off, fail-open entries', async () => {
    const configFile = join(project, 'tollgate.config.yaml');
    const config = readFileSync(configFile, 'utf8');
    writeFileSync(configFile, config.replace('mode: enforce', 'mode: observe'));
    // Unaccepted, the change is not in force: doctor says it is pending, and the hook still enforces.
    const pending = await run(['doctor', '--hosts', 'claude-code', '--json']);
    expect(pending.code).toBe(1);
    const waiting = lastJson<Report>(pending.stdout).hosts[0]?.enforcing.problems ?? [];
    expect(waiting.join('\n')).toMatch(/changed since a person accepted it.*tollgate config accept/);
    expect(waiting.join('\n')).not.toContain('did not deny');
    expect((await asOperator(['config', 'accept'])).code).toBe(0);
    const observe = await run(['doctor', '--hosts', 'claude-code', '--json']);
    expect(observe.code).toBe(1);
    const problems = lastJson<Report>(observe.stdout).hosts[0]?.enforcing.problems ?? [];
    expect(problems[0]).toContain('mode: observe');
    expect(problems.join('\n')).toContain('did not deny a synthetic `git push --force origin main`');
    writeFileSync(configFile, config);
    expect((await asOperator(['config', 'accept'])).code).toBe(0);

    const settingsFile = join(project, '.claude', 'settings.json');
    const settings = readFileSync(settingsFile);
    const doc = JSON.parse(settings.toString());
    doc.hooks.PreToolUse.pop();
    writeFileSync(settingsFile, JSON.stringify(doc));
    const missing = await run(['doctor', '--hosts', 'claude-code']);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('Claude Code: not installed: no Tollgate entry for PreToolUse');
    writeFileSync(settingsFile, settings);

    writeFileSync(join(project, '.codex', 'config.toml'), '[features]\nhooks = false\n');
    const off = await run(['doctor', '--hosts', 'codex']);
    expect(off.code).toBe(1);
    expect(off.stdout).toContain('[features] hooks = false in');
    rmSync(join(project, '.codex', 'config.toml'));

    const cursorFile = join(project, '.cursor', 'hooks.json');
    const cursor = readFileSync(cursorFile);
    writeFileSync(cursorFile, cursor.toString().replaceAll('"failClosed": true', '"failClosed": false'));
    const open = await run(['doctor', '--hosts', 'cursor']);
    expect(open.code).toBe(1);
    expect(open.stdout).toContain('failClosed is not true');
    writeFileSync(cursorFile, cursor);

    expect((await run(['doctor', '--hosts', 'claude-code'])).code).toBe(0);
  });

  it('uninstall is for a person; it restores every file byte for byte, and running it again changes nothing', async () => {
    const agent = await run(['uninstall', '--yes']);
    expect(agent.code).toBe(1);
    expect(agent.stderr).toContain('operator-only');
    const dry = await run(['uninstall', '--dry-run', '--json']);
    expect(dry.code).toBe(0);
    expect(lastJson<{ hosts: { action: string }[] }>(dry.stdout).hosts.map((h) => h.action)).toEqual([
      'restore',
      'restore',
      'restore',
      'restore',
      'delete',
    ]);
    const done = await asOperator(['uninstall', '--yes']);
    expect(done.code, done.stderr).toBe(0);
    expect(snapshot()).toEqual(original);
    const again = await asOperator(['uninstall', '--yes', '--json']);
    expect(again.code).toBe(0);
    expect(
      lastJson<{ hosts: { action: string }[] }>(again.stdout).hosts.every((h) => h.action === 'none'),
    ).toBe(true);
    expect(snapshot()).toEqual(original);
    // Nothing installed: doctor says so for the hosts still present.
    const doctor = await run(['doctor', '--hosts', 'claude-code']);
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toContain('not installed');
  });

  it('a file changed since init keeps the change and loses only Tollgate entries', async () => {
    expect((await asOperator(['init', '--yes', '--hosts', 'claude-code'])).code).toBe(0);
    const file = join(project, '.claude', 'settings.json');
    const doc = JSON.parse(readFileSync(file, 'utf8'));
    doc.permissions.allow.push('Bash(npm run lint)');
    writeFileSync(file, JSON.stringify(doc, null, 4));
    const done = await asOperator(['uninstall', '--yes', '--hosts', 'claude-code', '--json']);
    expect(lastJson<{ hosts: { action: string; note?: string }[] }>(done.stdout).hosts[0]).toMatchObject({
      action: 'remove-entries',
      note: expect.stringContaining('changed since'),
    });
    const after = JSON.parse(readFileSync(file, 'utf8'));
    const expected = JSON.parse(original['.claude/settings.json']?.toString() ?? '');
    expected.permissions.allow.push('Bash(npm run lint)');
    expect(after).toEqual(expected);
    copyFileSync(join(FIXTURES, 'claude-code/settings.json'), file);
  });

  it('refuses a host file that does not parse, naming it, and leaves every file alone', async () => {
    const file = join(project, '.gemini', 'settings.json');
    const before = snapshot();
    writeFileSync(file, '{ "hooks": ');
    const refused = await asOperator(['init', '--yes', '--hosts', 'claude-code,gemini', '--json']);
    expect(refused.code).toBe(1);
    expect(lastJson<{ error: { code: string; message: string } }>(refused.stdout).error).toMatchObject({
      code: 'host_config_invalid',
      message: expect.stringContaining(`${file}: is not valid JSON`),
    });
    expect(readFileSync(file, 'utf8')).toBe('{ "hooks": ');
    expect(read('.claude/settings.json').equals(before['.claude/settings.json'] as Buffer)).toBe(true);
    copyFileSync(join(FIXTURES, 'gemini/settings.json'), file);
  });
});

/**
 * At a person's terminal (script(1) gives the CLI a TTY) init shows the diff and asks; only "y"
 * applies it. Skipped when the test run itself is under an agent host, whose terminal is no person's.
 */
describe.skipIf(agentHostAmong(procAncestors() ?? []) !== undefined)('init at a terminal', () => {
  const atTerminal = (dir: string, answer: string) => {
    const env: NodeJS.ProcessEnv = { HOME: join(dir, 'home'), XDG_STATE_HOME: join(dir, 'state') };
    for (const [k, v] of Object.entries(process.env))
      if (!k.startsWith('TOLLGATE_') && !k.startsWith('CLAUDE') && !(k in env)) env[k] = v;
    const line = `'${process.execPath}' '${BIN}' init --hosts claude-code`;
    return spawnSync('script', ['-qec', line, '/dev/null'], {
      cwd: join(dir, 'p'),
      env,
      input: answer,
      encoding: 'utf8',
    });
  };

  it('asks y/N after showing the diff, and applies only on y', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tollgate-install-tty-'));
    try {
      mkdirSync(join(dir, 'p', '.claude'), { recursive: true });
      mkdirSync(join(dir, 'home'));
      const settings = join(dir, 'p', '.claude', 'settings.json');
      copyFileSync(join(FIXTURES, 'claude-code/settings.json'), settings);
      const before = readFileSync(settings);
      const no = atTerminal(dir, 'n\n');
      expect(no.status).toBe(1);
      expect(no.stdout).toContain('Apply these changes? [y/N]');
      expect(no.stdout).toMatch(/^\+.*hook claude-code/m);
      expect(readFileSync(settings).equals(before)).toBe(true);
      expect(existsSync(join(dir, 'p', 'tollgate.config.yaml'))).toBe(false);
      const yes = atTerminal(dir, 'y\n');
      expect(yes.status, yes.stdout).toBe(0);
      expect(readFileSync(settings, 'utf8')).toMatch(/bin\/tollgate\.js hook claude-code"/);
      expect(existsSync(join(dir, 'p', 'tollgate.config.yaml'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
