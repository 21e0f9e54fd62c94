// A config takes effect only once a person has accepted it: the first load pins it, the same bytes
// load as they are, a changed config or rule file or a deleted config leaves the accepted copy in
// force (reported as pending), and `tollgate config accept` re-pins — for a person only, judged by the
// tokens of the accepted config, not of the change.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandIO } from './command.js';
import { command as configCommand } from './commands/config.js';
import { configPinFile, readConfigPin } from './config-pin.js';
import { setNoticeSink } from './notices.js';
import { findConfig, openPolicy, pinPath } from './runtime.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-config-pin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const OPS = 'operator-secret-config-0123456789';
const TOKENS = `tokens:\n  - { token: "${OPS}", agent: oncall, operator: true }\n`;
const RULES = `rules:
  - id: team.no-deploy
    description: deploys are irreversible
    tool: shell
    match: { segment: { type: object, properties: { program: { const: deploy-now } }, required: [program] } }
    class: irreversible
    severity: high
`;

let n = 0;
function project(config: string, rules?: string) {
  const dir = join(root, `p${n++}`);
  mkdirSync(dir, { recursive: true });
  const env = { TOLLGATE_STATE_DIR: join(dir, '..', `state-${n}`), HOME: dir };
  if (rules !== undefined) writeFileSync(join(dir, 'team.yaml'), rules);
  const path = join(dir, 'tollgate.config.yaml');
  writeFileSync(path, config);
  return { dir, env, path, base: env.TOLLGATE_STATE_DIR };
}

function rulesOf(dir: string, env: NodeJS.ProcessEnv): string[] {
  return openPolicy(dir, env).policy.rules.map((r) => r.rule.id);
}

async function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  const io: CommandIO = { argv, stdin: new PassThrough(), stdout, stderr, env, cwd, interactive: false };
  const code = await configCommand.run(io);
  return { code, out, err };
}

describe('the config pin', { timeout: 30_000 }, () => {
  it('pins a config on first use and loads the same bytes as they are', () => {
    const p = project('mode: observe\npolicies: [./team.yaml]\n', RULES);
    const first = findConfig(p.dir, p.env);
    expect(first.config.mode).toBe('observe');
    expect(first.pending).toBeUndefined();
    const pin = readConfigPin(p.base, pinPath(p.path));
    expect(pin?.accepted_by).toBe('first use');
    expect(pin?.files.map((f) => f.path)).toEqual([pinPath(p.path), join(p.dir, 'team.yaml')]);
    const again = findConfig(p.dir, p.env);
    expect(again.config.mode).toBe('observe');
    expect(again.pending).toBeUndefined();
    expect(again.pin?.digest).toBe(pin?.digest);
    expect(rulesOf(p.dir, p.env)).toContain('team.no-deploy');
  });

  it('keeps the accepted config in force when the config changes, and says so', () => {
    const p = project('mode: enforce\n');
    findConfig(p.dir, p.env);
    writeFileSync(p.path, 'mode: observe\n');
    const told: string[] = [];
    setNoticeSink((t) => told.push(t));
    const loaded = findConfig(p.dir, p.env);
    setNoticeSink(undefined);
    expect(loaded.config.mode).toBe('enforce');
    expect(loaded.pending).toEqual([expect.objectContaining({ path: pinPath(p.path) })]);
    expect(told.join('\n')).toMatch(/tollgate\.config\.yaml changed.*tollgate config accept/);
  });

  it('keeps the accepted rules when a rule file changes or vanishes', () => {
    const p = project('policies: [./team.yaml]\n', RULES);
    expect(rulesOf(p.dir, p.env)).toContain('team.no-deploy');
    writeFileSync(join(p.dir, 'team.yaml'), 'rules: []\n');
    expect(findConfig(p.dir, p.env).pending?.[0]?.path).toBe(join(p.dir, 'team.yaml'));
    expect(rulesOf(p.dir, p.env)).toContain('team.no-deploy');
    rmSync(join(p.dir, 'team.yaml'));
    expect(findConfig(p.dir, p.env).pending?.[0]).toMatchObject({ now: null });
    expect(rulesOf(p.dir, p.env)).toContain('team.no-deploy');
  });

  it('pins the rule files an MCP upstream lists too', () => {
    const p = project('mcp:\n  upstreams:\n    fs:\n      policies: [./team.yaml]\n', RULES);
    expect(findConfig(p.dir, p.env).pin?.files.map((f) => f.path)).toContain(join(p.dir, 'team.yaml'));
    writeFileSync(join(p.dir, 'team.yaml'), 'rules: []\n');
    const loaded = findConfig(p.dir, p.env);
    expect(loaded.pending?.[0]?.path).toBe(join(p.dir, 'team.yaml'));
    expect(loaded.ruleTexts?.get(join(p.dir, 'team.yaml'))).toContain('team.no-deploy');
  });

  it('treats a deleted config, or one replaced by a symlink, as a change', () => {
    const p = project('mode: enforce\n');
    findConfig(p.dir, p.env);
    rmSync(p.path);
    const gone = findConfig(p.dir, p.env);
    expect(gone.config.mode).toBe('enforce');
    expect(gone.pending?.[0]).toMatchObject({ now: null });
    // TOLLGATE_CONFIG naming the deleted, pinned file finds the accepted copy too.
    expect(findConfig(root, { ...p.env, TOLLGATE_CONFIG: p.path }).config.mode).toBe('enforce');
    writeFileSync(join(p.dir, 'lax.yaml'), 'mode: observe\n');
    symlinkSync(join(p.dir, 'lax.yaml'), p.path);
    const linked = findConfig(p.dir, p.env);
    expect(linked.config.mode).toBe('enforce');
    expect(linked.pending).toHaveLength(1);
  });

  it('refuses a damaged pin rather than taking the config as new', () => {
    const p = project('mode: enforce\n');
    findConfig(p.dir, p.env);
    writeFileSync(configPinFile(p.base, pinPath(p.path)), '{"schema":');
    writeFileSync(p.path, 'mode: observe\n');
    expect(() => findConfig(p.dir, p.env)).toThrow(expect.objectContaining({ code: 'config_invalid' }));
  });
});

describe('tollgate config accept', { timeout: 30_000 }, () => {
  it('is refused to a non-person, and judged by the accepted config’s tokens, not the change’s', async () => {
    const p = project(`mode: enforce\n${TOKENS}`);
    findConfig(p.dir, p.env);
    const forged = 'agent-made-token-0123456789abcdef';
    writeFileSync(p.path, `mode: observe\ntokens:\n  - { token: "${forged}", agent: me, operator: true }\n`);
    const noOne = await run(['accept'], p.dir, p.env);
    expect(noOne.code).toBe(1);
    expect(noOne.err).toMatch(/TOLLGATE_OPERATOR_TOKEN/);
    const withForged = await run(['accept'], p.dir, { ...p.env, TOLLGATE_OPERATOR_TOKEN: forged });
    expect(withForged.code).toBe(1);
    expect(findConfig(p.dir, p.env).config.mode).toBe('enforce');
  });

  it('shows the change, re-pins it and records it; the new config is then in force', async () => {
    const p = project(`mode: enforce\n${TOKENS}`);
    findConfig(p.dir, p.env);
    writeFileSync(p.path, `mode: observe\n${TOKENS}`);
    const status = await run(['status'], p.dir, p.env);
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/pending: .*tollgate\.config\.yaml/);
    const accepted = await run(['accept', '--reason', 'trial run'], p.dir, {
      ...p.env,
      TOLLGATE_OPERATOR_TOKEN: OPS,
    });
    expect(accepted.code).toBe(0);
    expect(accepted.out).toContain('- mode: enforce');
    expect(accepted.out).toContain('+ mode: observe');
    expect(accepted.out).toMatch(/accepted by oncall/);
    const loaded = findConfig(p.dir, p.env);
    expect(loaded.config.mode).toBe('observe');
    expect(loaded.pending).toBeUndefined();
    expect(loaded.pin?.accepted_by).toBe('oncall');
    const log = /recorded in (\S+)/.exec(accepted.out)?.[1] ?? '';
    expect(JSON.parse(readFileSync(log, 'utf8').trim())).toMatchObject({
      kind: 'config-accept',
      operator: 'oncall',
      reason: 'trial run',
      digest: loaded.pin?.digest,
    });
    expect((await run(['status'], p.dir, p.env)).code).toBe(0);
  });

  it('refuses to accept a config that does not load, and keeps the accepted one', async () => {
    const p = project(`mode: enforce\n${TOKENS}`);
    findConfig(p.dir, p.env);
    writeFileSync(p.path, `mode: sometimes\n${TOKENS}`);
    const env = { ...p.env, TOLLGATE_OPERATOR_TOKEN: OPS };
    const refused = await run(['accept'], p.dir, env);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/mode/);
    expect(findConfig(p.dir, p.env).config.mode).toBe('enforce');
  });

  it('accepting a deleted config removes its pin', async () => {
    const p = project(`mode: enforce\n${TOKENS}`);
    findConfig(p.dir, p.env);
    rmSync(p.path);
    const accepted = await run(['accept'], p.dir, { ...p.env, TOLLGATE_OPERATOR_TOKEN: OPS });
    expect(accepted.code).toBe(0);
    expect(readConfigPin(p.base, pinPath(p.path))).toBeUndefined();
    expect(findConfig(p.dir, p.env).path).toBeUndefined();
  });
});

describe('a project with no config', { timeout: 30_000 }, () => {
  it('pins the absence, so a config that appears later is a change a person accepts', async () => {
    const dir = join(root, `bare${n++}`);
    mkdirSync(join(dir, '.git'), { recursive: true });
    const env = { TOLLGATE_STATE_DIR: join(root, `state-bare-${n}`), HOME: dir };
    const path = join(dir, 'tollgate.config.yaml');
    const first = findConfig(join(dir), env);
    expect(first.path).toBeUndefined();
    expect(readConfigPin(env.TOLLGATE_STATE_DIR, pinPath(path))?.files).toEqual([
      { path: pinPath(path), sha256: null },
    ]);
    // Still absent: the defaults, no notice.
    const still = findConfig(dir, env);
    expect(still.config).toEqual({});
    expect(still.pending).toBeUndefined();
    // A config written by a route the gate did not see (git apply, tar -x) keeps the defaults in force.
    const told: string[] = [];
    setNoticeSink((text) => told.push(text));
    try {
      writeFileSync(path, 'mode: observe\n');
      const later = findConfig(join(dir), env);
      expect(later.config.mode).toBeUndefined();
      expect(later.pending).toEqual([{ path: pinPath(path), accepted: null, now: expect.any(String) }]);
      expect(told.join('\n')).toMatch(/tollgate\.config\.yaml appeared.*tollgate config accept/);
    } finally {
      setNoticeSink(undefined);
    }
    const status = await run(['status'], dir, env);
    expect(status.code).toBe(1);
    expect(status.out).toMatch(/pending: .*tollgate\.config\.yaml/);
    // No person here: the change stays pending.
    expect((await run(['accept'], dir, env)).code).not.toBe(0);
    expect(findConfig(dir, env).config.mode).toBeUndefined();
  });
});
