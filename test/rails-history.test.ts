// History at the moment of action: a rule that refuses a call shows, in the rails, its record in this
// project — how often it fired this week and the prediction it already saw fail (predicted beside
// observed) — read back through the store, with every observed string sanitised.
import { ulid } from 'ulid';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { deployCall, observeAndPredict, openTestGate, statusRead, type TestGate } from './support/gate.js';

let t: TestGate;
beforeEach(async () => {
  t = await openTestGate();
});
afterEach(() => t.close());

test('a refusal carries the rule’s fires this week and its last mismatch', async () => {
  const first = await t.gate.check(deployCall('s1'));
  expect(first.outcome).toBe('rejected');
  expect(first.rails?.history).toBeUndefined(); // nothing on record yet

  const { prediction } = await observeAndPredict(t.gate, 's1');
  const go = await t.gate.check(deployCall('s1'), { envelope: { prediction } });
  expect(go.outcome).toBe('dispatch');
  await t.gate.recordOutcome(go.audit_id as string, {
    status: 'ok',
    observed: [{ subject: statusRead, output: 'api: running build 41\u001b[31m (rollback)' }],
  });
  await t.gate.flush();

  t.clock.advance(3600);
  const later = await t.gate.check(deployCall('s2'));
  expect(later.outcome).toBe('rejected');
  const rule = later.rules[0] as string;
  expect(later.rails?.history).toEqual([
    {
      rule,
      fires: 2,
      mismatches: [
        {
          audit_id: go.audit_id,
          at: expect.any(String),
          subject: statusRead,
          op: 'contains',
          predicted: 'build 42',
          observed: expect.stringContaining('build 41'),
        },
      ],
    },
  ]);
  expect(later.rails?.text).toContain(
    `This project's record of ${rule}: it fired 2 times in the last 7 days.`,
  );
  expect(later.rails?.text).toMatch(/said contains "\\"build 42\\""|said contains .*build 42/);
  expect(later.rails?.text).not.toContain('\u001b');

  // A week on, the fires have aged out of the count.
  t.clock.advance(8 * 86_400);
  const weekLater = await t.gate.check(deployCall('s3'));
  expect(weekLater.rails?.history?.[0]?.fires ?? 0).toBe(0);
});

test('an agent is shown its own record, never another agent’s observed outputs', async () => {
  const { prediction } = await observeAndPredict(t.gate, 'a1');
  const go = await t.gate.check({ ...deployCall('a1'), agent: 'alice' }, { envelope: { prediction } });
  expect(go.outcome).toBe('dispatch');
  await t.gate.recordOutcome(go.audit_id as string, {
    status: 'ok',
    observed: [{ subject: statusRead, output: 'api: build 41, secret-token-of-alice' }],
  });
  await t.gate.flush();
  const bob = await t.gate.check({ ...deployCall('b1'), agent: 'bob' });
  expect(bob.outcome).toBe('rejected');
  expect(bob.rails?.history).toBeUndefined();
  expect(bob.rails?.text).not.toContain('secret-token-of-alice');
  const alice = await t.gate.check({ ...deployCall('a2'), agent: 'alice' });
  expect(alice.rails?.history?.[0]?.mismatches[0]?.observed).toContain('secret-token-of-alice');
});

test('a rule that fired more often than the store counts says "at least"', async () => {
  // The store reads a rule's newest fires up to a bound (FIRES_SCANNED, 2,000): past it the count is
  // a lower bound, and the rails say so rather than presenting it as exact.
  const { FIRES_SCANNED } = await import('../packages/store/src/rule-history.js');
  const first = await t.gate.check(deployCall('busy'));
  const rule = first.rules[0] as string;
  const drafts = Array.from({ length: FIRES_SCANNED }, (_, i) => ({
    kind: 'decision' as const,
    id: ulid(),
    at: new Date(t.clock.now() + i).toISOString(),
    session: 'busy',
    tool: 'deploy',
    call_digest: first.call_digest,
    mode: 'enforce' as const,
    outcome: 'rejected' as const,
    rules: [rule],
    reasons: ['prediction_missing'],
  }));
  await t.store.appendAudit(drafts);
  t.clock.advance(10);
  const busy = await t.gate.check(deployCall('busy'));
  expect(busy.rails?.history?.[0]).toMatchObject({ rule, fires: FIRES_SCANNED, fires_at_least: true });
  expect(busy.rails?.text).toContain(`it fired at least ${FIRES_SCANNED} times in the last 7 days.`);
});
