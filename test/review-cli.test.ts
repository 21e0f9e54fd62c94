// Reviews through the CLI (issue 13): past the deny ceiling a call files a review request; a person
// (here an operator token, since a test cannot be a person at a terminal) approves it with
// `tollgate review approve`; the same call then runs exactly once, and the next needs a new review.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

const OPS = 'operator-secret-0123456789';
let dir: string;
let env: Record<string, string>;
const run = (args: string[], extra: Record<string, string> = {}) =>
  tollgate(args, { cwd: dir, env: { ...env, ...extra } });

beforeAll(() => {
  dir = join(scratchRepo().root, 'review');
  mkdirSync(dir, { recursive: true });
  const config = join(dir, 'tollgate.config.yaml');
  writeFileSync(config, `tokens:\n  - { token: "${OPS}", agent: oncall, operator: true }\n`);
  env = { TOLLGATE_CONFIG: config, TOLLGATE_DB: join(dir, 'db.sqlite'), TOLLGATE_SESSION: 'rv' };
});
afterAll(() => {});

// Gated by the shipped rules; run outside any repository, git itself fails once the gate lets it by.
const gated = () => ['run', '--', 'git', 'push', '--force', 'origin', 'main'];

describe('tollgate review', () => {
  it('files at the ceiling, a person approves, the call runs once, the next needs a new review', async () => {
    let last = await run(gated());
    for (let i = 0; i < 3; i++) last = await run(gated());
    expect(last.code).toBe(2);
    const id = /review ([0-9A-HJKMNP-TV-Z]{26})/.exec(last.stderr + last.stdout)?.[1];
    expect(id, last.stderr).toBeDefined();
    expect(last.stderr + last.stdout).toContain(`tollgate review approve ${id}`);

    const refused = await run(['review', 'approve', id as string, '--reason', 'me']);
    expect(refused.code).toBe(1);
    const listed = await run(['review', 'list', '--json'], { TOLLGATE_OPERATOR_TOKEN: OPS });
    expect(lastJson<unknown[]>(listed.stdout)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, state: 'pending' })]),
    );
    const ok = await run(['review', 'approve', id as string, '--reason', 'checked'], {
      TOLLGATE_OPERATOR_TOKEN: OPS,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('approved by oncall');

    const passed = await run(gated());
    expect(passed.code).not.toBe(2);
    expect(passed.stderr).not.toContain('review_required');
    const again = await run(gated());
    expect(again.code).toBe(2);
    // The streak restarted with the approved dispatch: refused again, and at the ceiling a new review.
    expect(again.stderr + again.stdout).not.toContain('review_approved');
    const rows = JSON.parse((await run(['audit', 'list', '--json'])).stdout) as {
      kind: string;
      review?: { person: string };
    }[];
    expect(rows.filter((r) => r.kind === 'review').map((r) => r.review?.person)).toEqual(['oncall']);
  });

  it('deny is final and needs --reason', async () => {
    const session = { TOLLGATE_SESSION: 'rv2' };
    let last = await run(gated(), session);
    for (let i = 0; i < 3; i++) last = await run(gated(), session);
    const id = /review ([0-9A-HJKMNP-TV-Z]{26})/.exec(last.stderr + last.stdout)?.[1] as string;
    const ops = { ...session, TOLLGATE_OPERATOR_TOKEN: OPS };
    expect((await run(['review', 'deny', id], ops)).code).toBe(1);
    expect((await run(['review', 'deny', id, '--reason', 'no'], ops)).code).toBe(0);
    expect((await run(['review', 'approve', id, '--reason', 'yes'], ops)).code).toBe(1);
    const after = await run(gated(), session);
    expect(after.code).toBe(2);
    expect(after.stderr + after.stdout).toContain('denied');
  });
});
