// Issue 14 — what a new user meets, through the real binary: a prediction binds to what runs (not to
// its quoting), a ticket filed for another call is named, an override says so and still probes the
// prediction, a closed pipe ends quietly, and the texts read right.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, lastJson, scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

let repo: ReturnType<typeof scratchRepo>;
beforeAll(() => {
  repo = scratchRepo();
});
afterAll(() => rmSync(repo.root, { recursive: true, force: true }));

const run = (args: string[], session: string, env: Record<string, string> = {}) =>
  tollgate(args, { cwd: repo.work, env: { TOLLGATE_SESSION: session, ...env } });

describe('a prediction binds to what will run, not to how it was spelled', () => {
  it('a decline filed for one spelling covers every other spelling of the same words', async () => {
    await run(['observe', '--', 'git', 'log', '-1'], 'spelling');
    const filed = await run(
      [
        'decline',
        '--for',
        'git reset --hard HEAD~1',
        '--irreducible',
        'whether anyone needs the last commit',
        '--would-change-my-mind',
        'the author says it can go',
        '--attempted',
        'git log -1',
      ],
      'spelling',
    );
    expect(filed.code, filed.stderr).toBe(0);
    // A dry look with other quotes finds it; the audit row keeps the command as it was given.
    const looked = await run(['check', '--json', '--command', 'git reset --hard "HEAD~1"'], 'spelling');
    expect(lastJson(looked.stdout)).toMatchObject({ outcome: 'declined' });
    const rows = JSON.parse(
      (await run(['audit', 'list', '--json', '--session', 'spelling'], 'spelling')).stdout,
    );
    expect(rows.at(-1)).toMatchObject({
      outcome: 'declined',
      dry_run: true,
      call: { args: { command: 'git reset --hard "HEAD~1"' } },
    });
    const ran = await run(['run', '--', 'git', 'reset', '--hard', 'HEAD~1'], 'spelling');
    expect(ran.code, ran.stderr).toBe(3);
    expect(ran.stdout).toContain('declined');
  });

  it('-- words and --command with other quotes are one call digest', async () => {
    const words = lastJson(
      (await run(['check', '--json', '--', 'psql', '-c', 'DROP TABLE users'], 's')).stdout,
    );
    const line = lastJson(
      (await run(['check', '--json', '--command', 'psql -c "DROP TABLE users"'], 's')).stdout,
    );
    expect(words.call_digest).toBe(line.call_digest);
    const other = lastJson(
      (await run(['check', '--json', '--command', 'psql -c "DROP TABLE user"'], 's')).stdout,
    );
    expect(other.call_digest).not.toBe(line.call_digest);
  });

  it('a refusal names the prediction open in the session for a different call, beside this one', async () => {
    const session = 'elsewhere';
    const head = git(repo.work, 'rev-parse', 'HEAD');
    await run(['check', '--', 'git', 'push', '--force', 'origin', 'main'], session);
    await run(['observe', '--', 'git', 'rev-parse', 'HEAD'], session);
    const prediction = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ source: 'git rev-parse HEAD', quote: head.slice(0, 12) }],
    };
    const filed = await run(
      ['predict', '--for', 'git push --force origin main', '--json-doc', JSON.stringify(prediction)],
      session,
    );
    expect(filed.code, filed.stderr).toBe(0);
    const other = await run(['check', '--', 'git', 'push', '--force', 'origin', 'feature'], session);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain(
      'open in this session for a different call: "git push --force origin main"',
    );
    expect(other.stderr).toContain('this call is "git push --force origin feature"');
  });
});

describe('an override that applies says so', () => {
  it('prints who let the call through, why and until when, and still probes the filed prediction', async () => {
    const dir = join(repo.root, 'override');
    mkdirSync(dir, { recursive: true });
    const config = join(dir, 'tollgate.config.yaml');
    writeFileSync(
      config,
      'tokens:\n  - { token: "operator-secret-0123456789", agent: oncall, operator: true }\n',
    );
    const env = { TOLLGATE_CONFIG: config, TOLLGATE_DB: join(dir, 'db.sqlite') };
    const session = 'overridden';
    const granted = await run(
      ['override', '--reason', 'incident 12', '--ttl', '15m', '--session', session],
      session,
      { ...env, TOLLGATE_OPERATOR_TOKEN: 'operator-secret-0123456789' },
    );
    expect(granted.code, granted.stderr).toBe(0);
    const head = git(repo.work, 'rev-parse', 'HEAD');
    await run(['observe', '--', 'git', 'rev-parse', 'HEAD'], session, env);
    const prediction = {
      claims: [{ subject: 'git ls-remote origin', op: 'contains', value: head }],
      evidence: [{ source: 'git rev-parse HEAD', quote: head.slice(0, 12) }],
    };
    const filed = await run(
      ['predict', '--for', 'git push --force origin main', '--json-doc', JSON.stringify(prediction)],
      session,
      env,
    );
    expect(filed.code, filed.stderr).toBe(0);
    const ran = await run(['run', '--', 'git', 'push', '--force', 'origin', 'main'], session, env);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stderr).toMatch(
      /override \w+ applies: operator oncall let this through \(until \d{4}-.*\): incident 12/,
    );
    expect(ran.stderr).toContain('is recorded and its claims are probed');
    expect(ran.stderr).toMatch(/matched\s+git ls-remote origin contains/);
    expect(ran.stderr).not.toContain('(no claims)');
  });
});

describe('a closed stdout ends the command quietly, status 0', () => {
  const piped = (tail: string, args: string[], input = '') =>
    spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" ${args.join(' ')} | ${tail}`], {
      cwd: repo.work,
      input,
      encoding: 'utf8',
      env: { ...process.env, TOLLGATE_SESSION: 'pipes' },
    });

  it.each([
    ['rules list', ['rules', 'list'], ''],
    ['audit list', ['audit', 'list'], ''],
    [
      'classify --batch',
      ['classify', '--batch'],
      `${'{"command": "git push --force origin main"}\n'.repeat(20_000)}`,
    ],
  ])('%s | head -1', (_, args, input) => {
    const out = piped('head -1', args, input);
    expect(out.stderr).not.toMatch(/EPIPE|internal error|Error:/);
    expect(out.status).toBe(0);
    expect(out.stdout.split('\n').filter((l) => l !== '')).toHaveLength(1);
  });

  it('even when the reader is gone before the first write', () => {
    const out = piped('true', ['rules', 'list']);
    expect(out.stderr).toBe('');
    expect(out.status).toBe(0);
  });
});

describe('texts', () => {
  it('audit list with no rows says so; rules list has a header with the file column', async () => {
    const empty = await run(['audit', 'list', '--session', 'nobody-here'], 'nobody-here');
    expect(empty.stdout).toBe('no rows\n');
    const rules = (await run(['rules', 'list'], 's')).stdout.split('\n');
    expect(rules[0]).toBe('id\tclass\tseverity\ttool\tfile\tdescription');
    expect(rules.find((l) => l.startsWith('git.push.force\t'))?.split('\t')[4]).toMatch(
      /^builtin:shell$|shell\.yaml$/,
    );
  });

  it('a subcommand --help prints that subcommand, not the parent', async () => {
    const list = await run(['audit', 'list', '--help'], 's');
    expect(list.stdout).toMatch(/^Usage: tollgate audit list /);
    expect(list.stdout).not.toContain('tollgate audit anchor');
    const test = await run(['rules', 'test', '--help'], 's');
    expect(test.stdout).toMatch(/^Usage: tollgate rules test /);
    expect(test.stdout).not.toContain('tollgate rules list');
  });

  it('classify shows HEAD~1 as typed, as its JSON does', async () => {
    const text = await run(['classify', '--', 'git', 'reset', '--hard', 'HEAD~1'], 's');
    expect(text.stdout).toContain('gated segment: git reset --hard HEAD~1\n');
    const json = lastJson(
      (await run(['classify', '--json', '--', 'git', 'reset', '--hard', 'HEAD~1'], 's')).stdout,
    );
    expect(json.segment).toBe('git reset --hard HEAD~1');
  });
});
