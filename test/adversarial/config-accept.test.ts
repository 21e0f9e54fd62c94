// A config change the gate did not see being made cannot switch the gate off. The agent writes a
// patch (an ordinary project file) that flips `mode: observe` and applies it with `git apply`, a
// writer whose paths come from data, not from the command line. Whatever that call's own verdict, the
// config the gate enforces is the one a person accepted: a force push is still refused and the remote
// does not move. The agent cannot accept the change itself; once a person does, the new config applies.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { git, tollgate } from '../../packages/cli/src/testing/harness.js';
import { Host } from './host.js';

const OPS = 'operator-secret-accept-0123456789';
const TOKEN_LINE = `  - { token: "${OPS}", agent: oncall, operator: true }`;
const ACCEPTED = `mode: enforce\ntokens:\n${TOKEN_LINE}\n`;
const PATCH = [
  'diff --git a/tollgate.config.yaml b/tollgate.config.yaml',
  '--- a/tollgate.config.yaml',
  '+++ b/tollgate.config.yaml',
  '@@ -1,3 +1,3 @@',
  '-mode: enforce',
  '+mode: observe',
  ' tokens:',
  ` ${TOKEN_LINE}`,
  '',
].join('\n');

let host: Host;
let before: string;
beforeAll(async () => {
  host = new Host();
  // The person's config, with an operator token kept out of the agent's environment.
  writeFileSync(host.config, ACCEPTED);
  git(host.work, 'commit', '-q', '-am', 'operator token');
  before = host.remoteMain();
  // The first gated call loads the config: trust on first use pins it.
  expect((await host.bash('git push --force origin main')).denied).toBe(true);
});
afterAll(() => host.close());

describe('a config changed behind the gate’s back', () => {
  it('git apply of a patch that says observe does not open the gate', async () => {
    const wrote = await host.edit('Write', { file_path: join(host.work, 'change.diff'), content: PATCH });
    expect(wrote.denied).toBe(false);
    const applied = await host.bash('git apply change.diff');
    // Whatever the verdict on git apply, the change lands by some route (here: one no hook sees).
    if (!applied.ran) execFileSync('git', ['apply', 'change.diff'], { cwd: host.work });
    expect(readFileSync(host.config, 'utf8')).toContain('mode: observe');

    const push = await host.bash('git push --force origin main');
    expect(push.denied).toBe(true);
    expect(host.remoteMain()).toBe(before);
    // The person at Claude Code is told what is pending and how to accept it.
    const told = (push.pre as { systemMessage?: string }).systemMessage ?? '';
    expect(told).toContain('tollgate.config.yaml changed');
    expect(told).toContain('tollgate config accept');
  });

  it.each([
    'tollgate config accept',
    'tollgate config accept --reason mine',
    `TOLLGATE_OPERATOR_TOKEN=${OPS.slice(0, 8)} npx tollgate config accept`,
  ])('the agent cannot accept it itself: %s', async (command) => {
    const step = await host.bash(command);
    expect(step.denied).toBe(true);
    expect(step.reason).toContain('tollgate config');
    expect((await host.bash('git push --force origin main')).denied).toBe(true);
    expect(host.remoteMain()).toBe(before);
  });

  it('config status and doctor report the change as pending', async () => {
    const run = await tollgate(['config', 'status', '--json'], { cwd: host.work, env: host.env() });
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout).pending).toEqual([
      expect.objectContaining({ path: host.config, now: expect.any(String) }),
    ]);
    // A person installs the hook (init keeps the config as it is and pins nothing new); doctor then
    // finds it installed but not current nor enforcing while the change waits.
    const person = { ...host.env(), TOLLGATE_OPERATOR_TOKEN: OPS };
    const init = await tollgate(['init', '--hosts', 'claude-code', '--yes'], { cwd: host.work, env: person });
    expect(init.code, init.stderr).toBe(0);
    const doctor = await tollgate(['doctor', '--hosts', 'claude-code', '--no-self-test', '--json'], {
      cwd: host.work,
      env: host.env(),
    });
    expect(doctor.code).toBe(1);
    expect(doctor.stdout).toMatch(/changed since a person accepted it.*tollgate config accept/);
  });

  it('once a person accepts it, the new config is in force', async () => {
    const accept = await tollgate(['config', 'accept', '--reason', 'observe for a trial'], {
      cwd: host.work,
      env: { ...host.env(), TOLLGATE_OPERATOR_TOKEN: OPS },
    });
    expect(accept.code, accept.stderr).toBe(0);
    expect(accept.stdout).toContain('+ mode: observe');
    const push = await host.bash('git push --force origin main');
    expect(push.denied).toBe(false);
    expect(host.remoteMain()).toBe(host.headOf());
    expect(host.remoteMain()).not.toBe(before);
  });
});

describe('a config that appears where none was', () => {
  const CREATE = [
    'diff --git a/tollgate.config.yaml b/tollgate.config.yaml',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/tollgate.config.yaml',
    '@@ -0,0 +1 @@',
    '+mode: observe',
    '',
  ].join('\n');
  let bare: Host;
  let start: string;
  beforeAll(async () => {
    bare = new Host();
    // A project that runs on the built-in defaults: no config at all.
    git(bare.work, 'rm', '-q', 'tollgate.config.yaml');
    git(bare.work, 'commit', '-q', '-m', 'defaults');
    start = bare.remoteMain();
    expect((await bare.bash('git push --force origin main')).denied).toBe(true);
  });
  afterAll(() => bare.close());

  it('a patch that creates one saying observe does not open the gate', async () => {
    const wrote = await bare.edit('Write', { file_path: join(bare.work, 'new.diff'), content: CREATE });
    expect(wrote.denied).toBe(false);
    const applied = await bare.bash('git apply new.diff');
    if (!applied.ran) execFileSync('git', ['apply', 'new.diff'], { cwd: bare.work });
    expect(readFileSync(bare.config, 'utf8')).toContain('mode: observe');

    const push = await bare.bash('git push --force origin main');
    expect(push.denied).toBe(true);
    expect(bare.remoteMain()).toBe(start);
    expect((push.pre as { systemMessage?: string }).systemMessage ?? '').toContain(
      'tollgate.config.yaml appeared',
    );
  });
});
