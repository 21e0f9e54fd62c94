// The session caps through the gate (limits.ts): a session's ledger (observations, excerpt bytes) and
// its filed, unused tickets are capped; past a cap the request is refused with limit_exceeded naming
// the limit, nothing is written, the session's calls still get verdicts, and the session recovers when
// the cause goes (a ticket used up) — while other sessions never notice.
import type { LimitName } from '@tollgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, type TestGate } from './support/gate.js';

const read = (session: string, i: number, output = `api-${i}: running build 41`) => ({
  session,
  source: { tool: 'release_status', args: { service: `api-${i}` } },
  output,
  recordedBy: 'test',
  attested: true,
});

describe('session caps', () => {
  let t: TestGate;
  afterEach(() => t.close());

  it('refuses a read past the observation cap with limit_exceeded, keeps deciding, and counts it', async () => {
    const seen: LimitName[] = [];
    t = await openTestGate({ limits: { observations: 2 }, onLimit: (l) => seen.push(l) });
    await t.gate.recordObservation(read('s1', 1));
    await t.gate.recordObservation(read('s1', 2));
    await expect(t.gate.recordObservation(read('s1', 3))).rejects.toMatchObject({
      code: 'limit_exceeded',
      details: { limit: 'session_observations', observations: 2 },
    });
    expect(seen).toEqual(['session_observations']);
    // Nothing was written, the session's calls still get verdicts, and another session is untouched.
    expect(await t.store.findObservationsBySource('s1', JSON.stringify(read('s1', 3).source), 5)).toEqual([]);
    const verdict = await t.gate.check(deployCall('s1'));
    expect(verdict).toMatchObject({ outcome: 'rejected', reasons: [{ code: 'prediction_missing' }] });
    const { prediction } = await observeAndPredict(t.gate, 's2');
    expect((await t.gate.check(deployCall('s2'), { envelope: { prediction } })).outcome).toBe('dispatch');
  });

  it('refuses a read whose excerpt would pass the excerpt-byte cap, and takes a smaller one', async () => {
    t = await openTestGate({ limits: { excerptBytes: 1000 } });
    await t.gate.recordObservation(read('s1', 1, 'x'.repeat(900)));
    await expect(t.gate.recordObservation(read('s1', 2, 'y'.repeat(200)))).rejects.toMatchObject({
      code: 'limit_exceeded',
      details: { limit: 'session_excerpt_bytes' },
    });
    await t.gate.recordObservation(read('s1', 3, 'z'.repeat(100)));
  });

  it('keeps probing a dispatch to its outcome when the ledger is full', async () => {
    t = await openTestGate({ limits: { observations: 1 } });
    const { prediction } = await observeAndPredict(t.gate, 's1');
    const verdict = await t.gate.check(deployCall('s1'), { envelope: { prediction } });
    expect(verdict.outcome).toBe('dispatch');
    const result = await t.gate.settle(verdict.audit_id ?? '', 's1', {
      status: 'ok',
      observe: async () => ({ output: 'api: running build 42' }),
    });
    // The probe's read was not recorded (the ledger is full), and the claim was still judged on it.
    expect(result.row.kind).toBe('outcome');
    expect(result.claims.map((c) => c.result)).toEqual(['matched']);
  });

  it('caps filed, unused tickets per session; using one up makes room again', async () => {
    const seen: LimitName[] = [];
    t = await openTestGate({ limits: { pendingTickets: 2 }, onLimit: (l) => seen.push(l) });
    const filed = [];
    for (const service of ['a', 'b']) {
      await t.gate.recordObservation(read('s1', 0, 'api: running build 41'));
      const { prediction } = await observeAndPredict(t.gate, 's1');
      const r = await t.gate.recordPrediction(deployCall('s1', { service: 'api' }), {
        ...prediction,
        rationale: service,
      });
      filed.push(r);
      t.clock.advance(1);
    }
    // Two documents for the same call: both open, both counted.
    expect(filed.every((r) => r.ok)).toBe(true);
    const third = observeAndPredict(t.gate, 's1').then(({ prediction }) =>
      t.gate.recordPrediction(deployCall('s1'), { ...prediction, rationale: 'c' }),
    );
    await expect(third).rejects.toMatchObject({
      code: 'limit_exceeded',
      details: { limit: 'session_pending_tickets', open: 2 },
    });
    expect(seen).toEqual(['session_pending_tickets']);
    // Filing one already filed stays idempotent at the cap.
    const { prediction } = await observeAndPredict(t.gate, 's1');
    expect(await t.gate.recordPrediction(deployCall('s1'), { ...prediction, rationale: 'b' })).toMatchObject({
      ok: true,
      id: filed[1]?.ok ? filed[1].id : 'none',
    });
    // Another session files freely.
    const other = await observeAndPredict(t.gate, 's2');
    expect((await t.gate.recordPrediction(deployCall('s2'), other.prediction)).ok).toBe(true);
    // The call dispatches on the newest filed prediction: one place frees up.
    t.clock.advance(1);
    expect((await t.gate.check(deployCall('s1'))).outcome).toBe('dispatch');
    t.clock.advance(1);
    const again = await observeAndPredict(t.gate, 's1');
    expect(
      (await t.gate.recordPrediction(deployCall('s1'), { ...again.prediction, rationale: 'd' })).ok,
    ).toBe(true);
  });
});
