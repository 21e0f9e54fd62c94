// Invariant 4: a crashed gate is not an open gate. Store and policy failures deny what may be
// irreversible; unmatched calls follow the configured fail-open/closed setting. Observe mode never
// blocks and flags only what enforce mode would really reject.
import { createGate, loadPolicy, type Policy } from '@tollgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, type TestGate, TOOLS_POLICY } from './support/gate.js';

let t: TestGate | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('invariant 4: internal failures', () => {
  it('denies a gated call with gate_unavailable when the store is down', async () => {
    t = await openTestGate();
    await t.store.close();
    const verdict = await t.gate.check(deployCall());
    expect(verdict).toMatchObject({
      outcome: 'rejected',
      class: 'irreversible',
      rules: ['deploy.production'],
    });
    expect(verdict.reasons.map((r) => r.code)).toEqual(['gate_unavailable']);
    expect(verdict.audit_id).toBeUndefined();
  });

  it('passes an unmatched call when unmatched is open, and reports the lost audit row', async () => {
    const lost: number[] = [];
    t = await openTestGate({ onAuditError: (_, n) => lost.push(n) });
    await t.store.close();
    const verdict = await t.gate.check({ tool: 'list_files', args: {}, session: 's1' });
    expect(verdict.outcome).toBe('pass');
    await t.gate.flush();
    expect(lost).toEqual([1]);
  });

  it('denies an unmatched call when unmatched is closed and the audit cannot be written', async () => {
    t = await openTestGate({ unmatched: 'closed' });
    expect((await t.gate.check({ tool: 'list_files', args: {}, session: 's1' })).outcome).toBe('pass');
    await t.store.close();
    const verdict = await t.gate.check({ tool: 'list_files', args: {}, session: 's1' });
    expect(verdict.outcome).toBe('rejected');
    expect(verdict.reasons.map((r) => r.code)).toEqual(['gate_unavailable']);
  });

  it('fails closed when a declared rule cannot be evaluated', async () => {
    t = await openTestGate();
    const real = loadPolicy([TOOLS_POLICY]);
    const exploding: Policy = {
      rules: real.rules,
      byId: real.byId,
      rulesFor: (tool) =>
        real.rulesFor(tool).map((c) => ({
          ...c,
          args: () => {
            throw new Error('predicate exploded');
          },
        })),
    };
    const gate = createGate({ policy: exploding, store: t.store, clock: t.clock });
    const verdict = await gate.check(deployCall());
    expect(verdict.outcome).toBe('rejected');
    expect(verdict.reasons[0]).toMatchObject({ code: 'gate_unavailable' });
    expect(verdict.reasons[0]?.message).toContain('predicate exploded');
  });

  it('names the file when the policy is unreadable', () => {
    expect(() => loadPolicy(['/nonexistent/rules.yaml'])).toThrow(/nonexistent\/rules\.yaml does not exist/);
  });
});

describe('observe mode', () => {
  it('never blocks, and marks would_reject only where enforce would reject', async () => {
    t = await openTestGate({ mode: 'observe' });
    const unmatched = await t.gate.check({ tool: 'list_files', args: {}, session: 's1' });
    expect(unmatched).toMatchObject({ outcome: 'pass', would_reject: false, mode: 'observe' });

    const bare = await t.gate.check(deployCall());
    expect(bare).toMatchObject({ outcome: 'pass', would_reject: true, mode: 'observe' });
    expect(bare.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
    expect(await t.store.getAudit(bare.audit_id!)).toMatchObject({ outcome: 'pass', would_reject: true });

    const { prediction } = await observeAndPredict(t.gate);
    const good = await t.gate.check(deployCall(), { envelope: { prediction } });
    expect(good).toMatchObject({ outcome: 'dispatch', would_reject: false });

    // Observe mode records would_reject without counting toward the ceiling.
    for (let i = 0; i < 5; i++) await t.gate.check(deployCall('s9'));
    const later = await t.gate.check(deployCall('s9'));
    expect(later.reasons.map((r) => r.code)).toEqual(['prediction_missing']);
  });
});
