import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, statusRead, type TestGate } from './support/gate.js';

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(async () => {
  await t.close();
});

describe('settle after a call too large for the audit row', () => {
  it('settles a 20 KB dispatched call without throwing, probing read-only subjects', async () => {
    const { prediction } = await observeAndPredict(t.gate);
    const call = deployCall('s1', { notes: 'x'.repeat(20 * 1024) });
    const verdict = await t.gate.check(call, { envelope: { prediction } });
    expect(verdict.outcome).toBe('dispatch');
    const row = await t.store.getAudit(verdict.audit_id!);
    expect(row?.call).toMatchObject({ truncated: true });
    const result = await t.gate.settle(verdict.audit_id!, 's1', {
      status: 'ok',
      observe: async () => ({ output: 'api: running build 42' }),
    });
    expect(result.claims.map((c) => c.result)).toEqual(['matched']);
  });
});

describe('settle after a shell call too large for the audit row', () => {
  it('settles a 20 KB dispatched shell call without throwing', async () => {
    const read = 'npm view pkg version';
    await t.gate.recordObservation({
      session: 's1',
      source: read,
      output: '1.4.0',
      recordedBy: 'test',
      attested: true,
    });
    const prediction = {
      claims: [{ subject: read, op: 'contains', value: '1.5.0' }],
      evidence: [{ source: read, quote: '1.4.0' }],
    };
    const call = {
      tool: 'shell',
      args: { command: `npm publish --tag ${'x'.repeat(20 * 1024)}` },
      session: 's1',
    };
    const verdict = await t.gate.check(call, { envelope: { prediction } });
    expect(verdict.outcome).toBe('dispatch');
    expect((await t.store.getAudit(verdict.audit_id!))?.call).toMatchObject({ truncated: true });
    expect(await t.gate.probesFor(verdict.audit_id!)).toEqual([read]);
    const result = await t.gate.settle(verdict.audit_id!, 's1', {
      status: 'ok',
      observe: async () => ({ output: '1.5.0' }),
    });
    expect(result.claims.map((c) => c.result)).toEqual(['matched']);
  });
});

describe('check never throws on odd input or a failing observer', () => {
  it('rejects BigInt arguments as schema_invalid', async () => {
    const verdict = await t.gate.check({ tool: 'deploy', args: { env: 'production', n: 1n }, session: 's1' });
    expect(verdict.outcome).toBe('rejected');
    expect(verdict.reasons.map((r) => r.code)).toEqual(['schema_invalid']);
  });

  it('rejects a call whose properties throw when read', async () => {
    const args = Object.defineProperty({}, 'env', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    const verdict = await t.gate.check({ tool: 'deploy', args, session: 's1' });
    expect(verdict).toMatchObject({ outcome: 'rejected', reasons: [{ code: 'schema_invalid' }] });
  });

  it('keeps the verdict when onDecision throws', async () => {
    const local = await openTestGate({
      onDecision: () => {
        throw new Error('observer broke');
      },
    });
    try {
      const verdict = await local.gate.check(deployCall());
      expect(verdict.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
      expect((await local.gate.check({ tool: 'list_files', args: {}, session: 's1' })).outcome).toBe('pass');
    } finally {
      await local.close();
    }
  });
});
