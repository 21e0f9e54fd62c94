// The whole loop in-process through guard(): check, dispatch, re-read the probe-able claim
// subjects, store predicted vs observed; and the audit chain holds afterwards.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, statusRead, type TestGate } from './support/gate.js';

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(async () => {
  await t.close();
});

describe('guard', () => {
  it('dispatches, probes and stores claim results', async () => {
    let build = 41;
    const deploy = t.gate.guard(
      async () => {
        build = 42;
        return { deployed: 'api', build };
      },
      {
        observe: async (subject) =>
          JSON.stringify(subject) === JSON.stringify(statusRead)
            ? { output: `api: running build ${build}` }
            : undefined,
      },
    );
    const refused = await deploy(deployCall());
    expect(refused).toMatchObject({ dispatched: false, verdict: { outcome: 'rejected' } });
    expect(build).toBe(41);

    const { prediction } = await observeAndPredict(t.gate);
    const wrong = {
      ...prediction,
      claims: [...prediction.claims, { subject: statusRead, op: 'contains', value: 'build 99' }],
    };
    const done = await deploy(deployCall(), { prediction: wrong });
    expect(done).toMatchObject({ dispatched: true, result: { build: 42 }, verdict: { outcome: 'dispatch' } });
    expect(done.claims?.map((c) => c.result)).toEqual(['matched', 'mismatched']);

    const outcomes = await t.store.listAudit({ ref: done.verdict.audit_id! });
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ kind: 'outcome', result: { status: 'ok' } });
    expect(outcomes[0]?.claims?.[0]?.observed).toBe('api: running build 42');
    expect((await t.store.verifyAudit()).ok).toBe(true);
  });

  it('records a failed dispatch as an error outcome', async () => {
    const deploy = t.gate.guard(async () => {
      throw new Error('registry timeout');
    });
    const { prediction } = await observeAndPredict(t.gate);
    const failed = await deploy(deployCall(), { prediction });
    expect(failed.dispatched).toBe(true);
    expect((failed.error as Error).message).toBe('registry timeout');
    const [row] = await t.store.listAudit({ ref: failed.verdict.audit_id! });
    expect(row?.result).toMatchObject({ status: 'error', summary: 'registry timeout' });
  });

  it('leaves a claim unverifiable when its subject cannot be re-read', async () => {
    const deploy = t.gate.guard(async () => 'ok');
    const { prediction } = await observeAndPredict(t.gate);
    const other = {
      ...prediction,
      claims: [{ subject: 'curl -s https://api.internal/health', op: 'contains', value: 'ok' }],
    };
    const done = await deploy(deployCall(), { prediction: other });
    expect(done.claims?.map((c) => c.result)).toEqual(['unverifiable']);
  });

  it('takes observed values reported by the client afterwards', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const verdict = await t.gate.check(deployCall(), { envelope: { prediction } });
    const { claims } = await t.gate.recordOutcome(verdict.audit_id!, {
      status: 'ok',
      observed: [{ subject: statusRead, output: 'api: running build 42' }],
    });
    expect(claims.map((c) => c.result)).toEqual(['matched']);
    await expect(t.gate.recordOutcome('01JD3QK8Z5X7Y9A1B2C3D4E5F6', { status: 'ok' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(t.gate.recordOutcome(verdict.audit_id!, { status: 'great' })).rejects.toMatchObject({
      code: 'input_invalid',
    });
  });
});
