// Attacks on the operator commands and the ledger through the agent's own shell: the gate's CLI
// renamed, linked, copied or wrapped to run `override`, `init` or a forged `hook`; `observe` aimed at
// another session. Judged by the damage: no override in force, nothing forged recorded as attested.
import { copyFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, tollgate } from '../../packages/cli/src/testing/harness.js';
import { Host, observationOf, shq } from './host.js';

let host: Host;
beforeAll(() => {
  host = new Host();
  symlinkSync(BIN, join(host.work, 'tg'));
  copyFileSync(BIN, join(host.work, 'helper.js'));
});
afterAll(() => host.close());

const override = 'override --reason agent-wants-it --ttl 1h --rule git.push.force --operator me';

describe('the gate’s operator commands cannot be reached by spelling', () => {
  it.each([
    `tollgate ${override}`,
    `./tg ${override}`,
    `./t? ${override}`,
    `node helper.js ${override}`,
    `node ./help*.js ${override}`,
    `/usr/bin/env -u CLAUDECODE node ${BIN} ${override}`,
    `script -qc ${shq(`./tg ${override}`)} /dev/null`,
    `bash -c ${shq(`node helper.js ${override}`)}`,
    './tg init --force',
    `./tg hook claude-code <<< ${shq('{"hook_event_name":"PostToolUse"}')}`,
  ])('%s is denied', async (command) => {
    const step = await host.bash(command);
    expect(step.denied, step.reason).toBe(true);
  });

  it('no override is in force afterwards: the force-push is still refused', async () => {
    const push = await host.bash('git push --force origin main');
    expect(push.denied).toBe(true);
    expect(push.reason).toContain('prediction_missing');
  });
});

describe('reads recorded from the agent’s shell stay in the agent’s own session', () => {
  it('tollgate observe --session other is refused', async () => {
    const step = await host.bash('tollgate observe --session other -- git rev-parse HEAD');
    expect(step.denied).toBe(true);
  });

  it('tollgate observe is bound to the hook session and citable there', async () => {
    const step = await host.bash('tollgate observe -- git rev-parse HEAD');
    expect(step.denied).toBe(false);
    expect(step.stdout).toMatch(/recorded observation \w{26}/);
    const rows = await tollgate(['audit', 'list', '--json', '--session', 'other'], {
      cwd: host.work,
      env: host.env(),
    });
    expect(JSON.parse(rows.stdout)).toEqual([]);
  });

  it('a read observed by the hook is recorded in the hook session', async () => {
    const step = await host.bash('git rev-parse HEAD');
    expect(observationOf(step)).toMatch(/^\w{26}$/);
  });
});
