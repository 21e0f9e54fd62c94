// A realistic audit history for the report suites: three days, two agents and an agent-less host, two
// rules, a perfunctory prediction, a decline that tried no read, a refusal repeated after a decline,
// an override, an escalation, a dry look, an observe-mode would-reject, mismatched and unverifiable
// claims with confidences. The expected figures are worked out by hand in report-conformance.ts.
import type { AuditRow, Prediction } from '@tollgate/contracts';
import type { AuditDraft, Store } from '@tollgate/core';
import { hex64, newId, observation, prediction as predictionRecord } from './fixtures.js';

export const T0 = Date.parse('2026-11-16T00:00:00Z');
export const DAY = 86_400_000;
export const FORCE = 'git.push.force';
export const DROP = 'db.drop';

const claim = (value: string, confidence?: number) => ({
  subject: 'git ls-remote origin',
  op: 'contains' as const,
  value,
  ...(confidence !== undefined ? { confidence } : {}),
});

const prediction = (claims: ReturnType<typeof claim>[]): Prediction => ({
  claims: claims as Prediction['claims'],
  evidence: [{ source: 'git rev-parse HEAD', quote: 'abc1234' }],
});

/** The seeded rows by their number in the history (1-based), as stored. */
export type History = Record<number, AuditRow>;

export async function seedHistory(store: Pick<Store, 'appendAudit'>): Promise<History> {
  const rows: History = {};
  const d = (n: number, at: number, patch: Partial<AuditDraft>): AuditDraft => ({
    id: newId(),
    at: new Date(at).toISOString(),
    kind: 'decision',
    session: 's1',
    tool: 'shell',
    mode: 'enforce',
    ...patch,
    ...(patch.kind === 'outcome' ? {} : { call_digest: patch.call_digest ?? hex64(`call-${n}`) }),
  });
  const add = async (n: number, at: number, patch: Partial<AuditDraft>) => {
    const [row] = await store.appendAudit([d(n, at, patch)]);
    rows[n] = row as AuditRow;
  };
  const outcome = async (n: number, of: number, at: number, claims: NonNullable<AuditRow['claims']>) => {
    const decision = rows[of] as AuditRow;
    const patch: Partial<AuditDraft> = {
      kind: 'outcome',
      ref: decision.id,
      session: decision.session,
      claims,
    };
    if (decision.agent !== undefined) patch.agent = decision.agent;
    if (decision.tool !== undefined) patch.tool = decision.tool;
    patch.result = { status: 'ok' };
    await add(n, at, patch);
  };
  const D1 = hex64('D1');
  const D2 = hex64('D2');
  const D3 = hex64('D3');
  const D4 = hex64('D4');
  const D5 = hex64('D5');
  const D6 = hex64('D6');
  const T1 = T0 + DAY;
  const T2 = T0 + 2 * DAY;
  const missing = ['prediction_missing'];

  // Day 0
  await add(1, T0, { agent: 'alice', outcome: 'pass', rules: [] });
  await add(2, T0 + 1000, {
    agent: 'alice',
    call_digest: D1,
    outcome: 'rejected',
    rules: [FORCE],
    reasons: missing,
  });
  const p3 = prediction([claim('abc1234', 0.8), claim('f00d', 0.6)]);
  await add(3, T0 + 4000, {
    agent: 'alice',
    call_digest: D1,
    outcome: 'dispatch',
    rules: [FORCE],
    prediction: p3,
    prediction_id: newId(),
    evidence: [
      { observation: newId(), age_s: 30 },
      { observation: newId(), age_s: 5 },
    ],
    directive_latency_ms: 2000,
  });
  await outcome(4, 3, T0 + 6000, [
    { claim: p3.claims[0] as never, result: 'matched', observed: 'abc1234 refs/heads/main' },
    { claim: p3.claims[1] as never, result: 'mismatched', observed: 'beef refs/heads/main' },
  ]);
  await add(5, T0 + 10_000, {
    session: 's2',
    agent: 'bob',
    call_digest: D2,
    outcome: 'rejected',
    rules: [DROP],
    reasons: missing,
  });
  await add(6, T0 + 20_000, {
    session: 's2',
    agent: 'bob',
    call_digest: D2,
    outcome: 'declined',
    rules: [DROP],
    decline: { irreducible: 'cannot tell', would_change_my_mind: ['a dump'], attempted_observations: [] },
  });
  await add(7, T0 + 30_000, {
    session: 's2',
    agent: 'bob',
    call_digest: D2,
    outcome: 'rejected',
    rules: [DROP],
    reasons: missing,
    escalation: 'ask_human',
  });
  await add(8, T0 + 40_000, {
    agent: 'alice',
    call_digest: D1,
    outcome: 'rejected',
    rules: [FORCE],
    reasons: missing,
    dry_run: true,
  });

  // Day 1
  await add(9, T1, {
    session: 's3',
    agent: 'alice',
    call_digest: D3,
    outcome: 'rejected',
    rules: [FORCE, DROP],
    reasons: ['evidence_stale', 'prediction_missing'],
  });
  await add(10, T1 + 60_000, {
    session: 's3',
    agent: 'alice',
    call_digest: D3,
    outcome: 'dispatch',
    rules: [FORCE, DROP],
    override_id: newId(),
  });
  const p11 = prediction([claim('ready')]);
  await add(11, T1 + 100_000, {
    session: 's4',
    tool: 'deploy',
    call_digest: D4,
    outcome: 'dispatch',
    rules: [DROP],
    prediction: p11,
    evidence: [{ observation: newId(), age_s: 120 }],
    directive_latency_ms: 500,
  });
  await outcome(12, 11, T1 + 110_000, [{ claim: p11.claims[0] as never, result: 'unverifiable' }]);
  await add(13, T1 + 120_000, {
    session: 's2',
    agent: 'bob',
    call_digest: D2,
    mode: 'observe',
    outcome: 'pass',
    would_reject: true,
    rules: [FORCE],
  });

  // Day 2
  await add(14, T2, {
    session: 's5',
    agent: 'bob',
    call_digest: D5,
    outcome: 'rejected',
    rules: [FORCE],
    reasons: missing,
  });
  await add(15, T2 + 1000, {
    session: 's6',
    agent: 'alice',
    call_digest: D6,
    outcome: 'rejected',
    rules: [FORCE],
    reasons: missing,
  });
  const p16 = prediction([claim('abc1234', 0.9)]);
  await add(16, T2 + 60_000, {
    session: 's6',
    agent: 'alice',
    call_digest: D6,
    outcome: 'dispatch',
    rules: [FORCE],
    prediction: p16,
    evidence: [{ observation: newId(), age_s: 10 }],
  });
  await outcome(17, 16, T2 + 70_000, [
    { claim: p16.claims[0] as never, result: 'matched', observed: 'abc1234' },
  ]);
  return rows;
}

/** Day 5 of the history: the perfunctory cases, each worked out in report-conformance.ts. */
export const T5 = T0 + 5 * DAY;

/**
 * Refused calls and the predictions that followed them, in sessions p1…p6 of agent carol under FORCE:
 * (1) a ticket filed 4 s after its refusal with no read since, dispatched a minute later; (2) an
 * inline prediction 5 s after its refusal, a read made in between (its evidence older than the
 * refusal); (3) 3 s after, only a directive and a call's result recorded in between (not reads);
 * (4) a refused prediction citing a read the rule does not accept, no refusal before it; (5) a refused
 * prediction 2 s after its refusal, no read since; (6) a prediction 11 s after its refusal.
 * Returns case n's refusal as `refused${n}` and the decision carrying its prediction as `predicted${n}`.
 */
export async function seedPerfunctory(
  store: Pick<Store, 'appendAudit' | 'insertObservation' | 'insertPrediction'>,
): Promise<Record<string, AuditRow>> {
  const rows: Record<string, AuditRow> = {};
  const doc = prediction([claim('abc1234')]);
  const add = async (name: string, n: number, at: number, patch: Partial<AuditDraft>) => {
    const [row] = await store.appendAudit([
      {
        id: newId(),
        at: new Date(at).toISOString(),
        kind: 'decision',
        session: `p${n}`,
        agent: 'carol',
        tool: 'shell',
        mode: 'enforce',
        call_digest: hex64(`P${n}`),
        rules: [FORCE],
        ...patch,
      },
    ]);
    rows[`${name}${n}`] = row as AuditRow;
  };
  const refuse = (n: number, at: number) =>
    add('refused', n, at, { outcome: 'rejected', reasons: ['prediction_missing'] });
  const predict = (n: number, at: number, patch: Partial<AuditDraft> = {}) =>
    add('predicted', n, at, {
      outcome: 'dispatch',
      prediction: doc,
      evidence: [{ observation: newId(), age_s: 300 }],
      ...patch,
    });
  const read = (n: number, at: number, kind?: 'directive' | 'result') =>
    store.insertObservation(observation(`p${n}`, `git status #${n}`, at, kind === undefined ? {} : { kind }));

  await read(1, T5 - 60_000);
  await refuse(1, T5);
  const ticket = { ...predictionRecord('p1', hex64('P1'), T5 + 4000), doc };
  await store.insertPrediction(ticket);
  await predict(1, T5 + 60_000, { prediction_id: ticket.id });

  await refuse(2, T5 + 100_000);
  await read(2, T5 + 102_000);
  await predict(2, T5 + 105_000);

  await refuse(3, T5 + 200_000);
  await read(3, T5 + 201_000, 'directive');
  await read(3, T5 + 202_000, 'result');
  await predict(3, T5 + 203_000);

  await predict(4, T5 + 300_000, { outcome: 'rejected', reasons: ['evidence_not_accepted'] });

  await refuse(5, T5 + 400_000);
  await predict(5, T5 + 402_000, { outcome: 'rejected', reasons: ['evidence_stale'] });

  await refuse(6, T5 + 500_000);
  await predict(6, T5 + 511_000);
  return rows;
}
