// Preconditions in-process: the shipped example rules (contracts/policies/examples) through a real
// gate on a real SQLite store, with real git for the recall gate and a clock the test moves.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Call } from '@tollgate/contracts';
import { createGate, loadPolicy } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestGate, type TestGate, tempDir } from './support/gate.js';
import { SERVE_BIN } from './support/serve.js';

const EXAMPLES = join(import.meta.dirname, '../contracts/policies/examples');
const REMEDIATION = join(EXAMPLES, 'remediation-gate.yaml');
const RECALL = join(EXAMPLES, 'recall-gate.yaml');

let t: TestGate | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const certify = (session = 's1'): Call => ({ tool: 'run_memo_qa_certifier', args: { memo: 'm1' }, session });

async function diagnostic(gate: TestGate['gate'], verdict: object, session = 's1') {
  const guarded = gate.guard(async () => verdict);
  return guarded({ tool: 'run_memo_qa_diagnostic', args: { memo: 'm1' }, session });
}

describe('the remediation gate', () => {
  it('refuses after CONDITIONAL, passes after a remediation, and again only after one', async () => {
    t = await openTestGate({ policies: [REMEDIATION] });
    await diagnostic(t.gate, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 1, max_cycles: 3 } });
    const refused = await t.gate.check(certify());
    expect(refused.outcome).toBe('rejected');
    expect(refused.reasons.map((r) => r.code)).toEqual(['precondition_unmet']);
    expect(refused.rules).toContain('memo.certify-after-remediation');
    expect(refused.rails?.text).toContain('the last diagnostic did not certify the memo');
    expect(refused.rails?.text).toContain(
      'call run_memo_remediation_writer after the newest read of run_memo_qa_diagnostic',
    );

    const remediate = t.gate.guard(async () => ({ ok: true }));
    expect(
      (await remediate({ tool: 'run_memo_remediation_writer', args: { memo: 'm1' }, session: 's1' }))
        .dispatched,
    ).toBe(true);
    expect((await t.gate.check(certify())).outcome).toBe('pass');

    // A new diagnostic after the remediation: the remediation no longer counts.
    t.clock.advance(1);
    await diagnostic(t.gate, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 2, max_cycles: 3 } });
    expect((await t.gate.check(certify())).outcome).toBe('rejected');
    // Another session saw none of it.
    expect((await t.gate.check(certify('s2'))).outcome).toBe('rejected');
  });

  it('passes on CERTIFIED or CONDITIONAL_FINAL, and at the cycle cap ($data)', async () => {
    t = await openTestGate({ policies: [REMEDIATION] });
    await diagnostic(t.gate, { outcome: 'CONDITIONAL_FINAL' });
    expect((await t.gate.check(certify())).outcome).toBe('pass');
    // Many other reads and calls since do not push the diagnostic out of what the gate looks at.
    const other = t.gate.guard(async () => 'ok');
    for (let i = 0; i < 40; i++) {
      await t.gate.recordObservation({
        session: 's1',
        source: `cat f${i}`,
        output: 'x',
        recordedBy: 'test',
        attested: true,
      });
      await other({ tool: 'note', args: { i }, session: 's1' });
    }
    expect((await t.gate.check(certify())).outcome).toBe('pass');
    t.clock.advance(1);
    await diagnostic(t.gate, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 2, max_cycles: 3 } });
    expect((await t.gate.check(certify())).outcome).toBe('rejected');
    t.clock.advance(1);
    await diagnostic(t.gate, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 3, max_cycles: 3 } });
    expect((await t.gate.check(certify())).outcome).toBe('pass');
  });

  it('escalates at the deny ceiling and stays refused; an override lets it through, audited', async () => {
    t = await openTestGate({ policies: [REMEDIATION] });
    await diagnostic(t.gate, { outcome: 'CONDITIONAL' });
    const verdicts = [];
    for (let i = 0; i < 4; i++) verdicts.push(await t.gate.check(certify()));
    expect(verdicts.map((v) => v.escalation)).toEqual([undefined, undefined, 'ask_human', 'ask_human']);
    expect(verdicts[3]?.reasons.map((r) => r.code)).toContain('deny_ceiling_reached');
    expect(verdicts[3]?.reasons.map((r) => r.code)).not.toContain('precondition_unmet');
    await t.gate.override({
      operator: 'ops',
      reason: 'certify by hand',
      rule: 'memo.certify-after-remediation',
      ttlS: 60,
    });
    const let_ = await t.gate.check(certify());
    expect(let_).toMatchObject({ outcome: 'pass', reasons: [{ code: 'override_applied' }] });
    expect(let_.override).toBeDefined();
  });

  it('observe mode logs would_reject only for what enforce would refuse', async () => {
    t = await openTestGate({ policies: [REMEDIATION], mode: 'observe' });
    const read = await t.gate.check({ tool: 'run_memo_qa_diagnostic', args: {}, session: 's1' });
    expect(read).toMatchObject({ outcome: 'pass', would_reject: false });
    await diagnostic(t.gate, { outcome: 'CONDITIONAL' });
    const would = await t.gate.check(certify());
    expect(would).toMatchObject({
      outcome: 'pass',
      would_reject: true,
      reasons: [{ code: 'precondition_unmet' }],
    });
    await diagnostic(t.gate, { outcome: 'CERTIFIED' });
    expect(await t.gate.check(certify())).toMatchObject({ outcome: 'pass', would_reject: false });
  });

  it('a result is not evidence for a prediction; a directive-kind record is not either', async () => {
    t = await openTestGate();
    const result = await t.gate.recordObservation({
      session: 's1',
      source: { tool: 'deploy', args: { service: 'api' } },
      output: 'api: running build 41 (sha 3f2a9c1)',
      recordedBy: 'test',
      attested: true,
      kind: 'result',
    });
    const verdict = await t.gate.check(
      { tool: 'deploy', args: { service: 'api', env: 'production' }, session: 's1' },
      {
        envelope: {
          prediction: {
            claims: [
              {
                subject: { tool: 'release_status', args: { service: 'api' } },
                op: 'contains',
                value: 'build 42',
              },
            ],
            evidence: [{ observation: result.id, quote: 'build 41' }],
          },
        },
      },
    );
    expect(verdict.reasons.map((r) => r.code)).toContain('evidence_not_accepted');
  });

  it('a store that fails while preconditions are read follows `unmatched` for a non-irreversible call', async () => {
    t = await openTestGate({ policies: [REMEDIATION], unmatched: 'closed' });
    const store = t.store as unknown as { ledgerWindows: () => Promise<never> };
    store.ledgerWindows = async () => {
      throw new Error('disk gone');
    };
    const v = await t.gate.check(certify());
    expect(v).toMatchObject({ outcome: 'rejected', reasons: [{ code: 'gate_unavailable' }] });
  });
});

/** A work tree with a bare remote to fetch from, and a git that runs in it apart from the user's config. */
function repo(): { dir: string; git: (...args: string[]) => string } {
  const root = tempDir('tollgate-recall-');
  const remote = join(root, 'remote.git');
  const dir = join(root, 'work');
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root };
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: dir, env, encoding: 'utf8', stdio: 'pipe' });
  execFileSync('git', ['init', '-q', '--bare', remote], { env });
  mkdirSync(dir);
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 't@example.org');
  git('config', 'user.name', 'T');
  git('remote', 'add', 'origin', remote);
  writeFileSync(join(dir, 'a.txt'), 'one\n');
  git('add', 'a.txt');
  return { dir, git };
}

describe('the recall gate (real git, injected clock)', () => {
  it('refuses a commit without a fresh fetch, passes after it, refuses once the read is older than 30 minutes', async () => {
    t = await openTestGate({ policies: [RECALL] });
    const { dir, git } = repo();
    const commit: Call = { tool: 'shell', args: { command: 'git commit -q -m one' }, session: 's1' };
    const refused = await t.gate.check(commit, { cwd: dir });
    expect(refused.outcome).toBe('rejected');
    expect(refused.reasons[0]?.message).toContain('not fetched in the last 30 minutes');
    expect(refused.rails?.text).toContain('do first: git fetch');

    // The fetch, made for real and recorded as the gate records a read it saw (tollgate observe).
    const fetched = git('fetch', 'origin');
    await t.gate.recordObservation({
      session: 's1',
      source: 'git fetch origin',
      output: fetched,
      recordedBy: 'test',
      attested: true,
    });
    const ok = await t.gate.check(commit, { cwd: dir });
    expect(ok.outcome).toBe('pass');
    git('commit', '-q', '-m', 'one');

    t.clock.advance(1801);
    const stale = await t.gate.check(
      { ...commit, args: { command: 'git commit -q --allow-empty -m two' } },
      { cwd: dir },
    );
    expect(stale.outcome).toBe('rejected');
    expect(stale.reasons.map((r) => r.code)).toEqual(['precondition_unmet']);
  });

  it('a push needs the fresh fetch on top of a prediction citing what was fetched', async () => {
    t = await openTestGate({ policies: [RECALL] });
    const push: Call = { tool: 'shell', args: { command: 'git push origin main' }, session: 's1' };
    const bare = await t.gate.check(push);
    expect(bare.reasons.map((r) => r.code)).toEqual(['precondition_unmet']);
    expect(bare.rails?.text).toContain('also irreversible');
    await t.gate.recordObservation({
      session: 's1',
      source: 'git fetch origin',
      output: '',
      recordedBy: 'test',
      attested: true,
    });
    const noPrediction = await t.gate.check(push);
    expect(noPrediction.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
  });
});

// The SQLite store keeps each session's ledger windows in memory between checks: another process or
// another gate instance on the same file must be seen by the very next check, in both directions.
describe('preconditions with another process or gate on the same file', () => {
  it('a fetch recorded by another process (tollgate observe) clears the refusal at the next check', async () => {
    t = await openTestGate({ policies: [RECALL], clock: { now: () => Date.now() } });
    const { dir } = repo();
    const commit: Call = { tool: 'shell', args: { command: 'git commit -q -m one' }, session: 's1' };
    expect((await t.gate.check(commit, { cwd: dir })).outcome).toBe('rejected');
    expect((await t.gate.check(commit, { cwd: dir })).outcome).toBe('rejected');
    execFileSync(
      process.execPath,
      [SERVE_BIN, 'observe', '--session', 's1', '--', 'git', 'fetch', 'origin'],
      {
        cwd: dir,
        env: { ...process.env, TOLLGATE_DB: t.dbPath, GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
        stdio: 'pipe',
      },
    );
    expect((await t.gate.check(commit, { cwd: dir })).outcome).toBe('pass');
  });

  it('a newer diagnostic through a second gate refuses at once what the first gate passed, and a remediation there clears it', async () => {
    t = await openTestGate({ policies: [REMEDIATION] });
    const other = await openStore(t.dbPath);
    const second = createGate({ policy: loadPolicy([REMEDIATION]), store: other, clock: t.clock });
    try {
      await diagnostic(t.gate, { outcome: 'CERTIFIED' });
      expect((await t.gate.check(certify())).outcome).toBe('pass');
      expect((await t.gate.check(certify())).outcome).toBe('pass');

      t.clock.advance(1);
      await diagnostic(second, { outcome: 'CONDITIONAL', qa_cycle: { current_cycle: 1, max_cycles: 3 } });
      const refused = await t.gate.check(certify());
      expect(refused.outcome).toBe('rejected');
      expect(refused.rails?.text).toContain('the last diagnostic did not certify the memo');

      t.clock.advance(1);
      const remediate = second.guard(async () => ({ ok: true }));
      await remediate({ tool: 'run_memo_remediation_writer', args: { memo: 'm1' }, session: 's1' });
      await second.flush();
      expect((await t.gate.check(certify())).outcome).toBe('pass');
    } finally {
      await second.flush();
      await other.close();
    }
  });
});
