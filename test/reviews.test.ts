// Reviews (issue 13): a rule that wants a person, the deny ceiling escalating into a request, and the
// answer — an approval lets exactly that call through once, a denial is final, waiting never approves.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { answerReview } from '@tollgate/core';
import { afterEach, describe, expect, it } from 'vitest';
import { openTestGate, type TestGate, tempDir } from './support/gate.js';

const POLICY = `schema: tollgate.policy/v1
rules:
  - id: deploy.review
    description: a production deploy needs a person
    tool: deploy
    match: { args: { type: object, required: [env], properties: { env: { const: production } } } }
    class: irreversible
    severity: high
    review: required
  - id: wipe.review
    description: a wipe needs a person only for the main database
    tool: wipe
    class: irreversible
    severity: critical
    review: { when: { type: object, properties: { args: { type: object, properties: { db: { const: main } }, required: [db] } } }, timeout_s: 600 }
`;

const deploy = (session = 's1') => ({ tool: 'deploy', args: { env: 'production' }, session, agent: 'alice' });

let t: TestGate;
afterEach(async () => {
  await t?.close();
});

async function open(options: Parameters<typeof openTestGate>[0] = {}): Promise<TestGate> {
  const dir = tempDir();
  const file = join(dir, 'review.policy.yaml');
  writeFileSync(file, POLICY);
  t = await openTestGate({ policies: [file], ...options });
  return t;
}

const reviewIdOf = (v: { reasons: { code: string; message: string }[] }) =>
  /review ([0-9A-HJKMNP-TV-Z]{26})/.exec(
    v.reasons.find((r) => r.code === 'review_required')?.message ?? '',
  )?.[1];

describe('review: required', () => {
  it('refuses with a review id, passes exactly once when approved, then needs a new review', async () => {
    const { gate, store, clock } = await open();
    const first = await gate.check(deploy());
    expect(first.outcome).toBe('rejected');
    const id = reviewIdOf(first);
    expect(id).toBeDefined();
    expect(first.reasons[0]?.message).toContain(`tollgate review approve ${id}`);
    // Retrying while it waits names the same request; nothing new is filed, the ceiling is not reached.
    for (let i = 0; i < 4; i++) expect(reviewIdOf(await gate.check(deploy()))).toBe(id);
    expect(await store.listReviews({ limit: 10 })).toHaveLength(1);
    // Another session's identical call is not covered by this request.
    const other = await gate.check(deploy('s2'));
    expect(reviewIdOf(other)).not.toBe(id);

    const answered = await answerReview(store, clock, {
      id: id as string,
      answer: 'approved',
      person: 'ops',
      reason: 'ok',
    });
    expect(answered.ok).toBe(true);
    const again = await answerReview(store, clock, {
      id: id as string,
      answer: 'denied',
      person: 'ops',
      reason: 'no',
    });
    expect(again).toMatchObject({ ok: false, code: 'not_pending' });

    // A dry look does not use the approval.
    expect((await gate.check(deploy(), { dryRun: true })).outcome).toBe('dispatch');
    const passed = await gate.check(deploy());
    expect(passed.outcome).toBe('dispatch');
    expect(passed.reasons[0]?.code).toBe('review_approved');
    const row = await store.getAudit(passed.audit_id ?? '');
    expect(row?.review_id).toBe(id);
    const next = await gate.check(deploy());
    expect(next.outcome).toBe('rejected');
    const nextId = (await store.getAudit(next.audit_id ?? ''))?.review_id;
    expect(nextId).toBeDefined();
    expect(nextId).not.toBe(id);
    expect(next.reasons[0]?.message).toContain('used up');
    const answers = await store.listAudit({ kind: 'review' });
    expect(answers).toHaveLength(1);
    expect(answers[0]?.review).toMatchObject({ id, answer: 'approved', person: 'ops', reason: 'ok' });
  });

  it('two racing calls after one approval: exactly one dispatches', async () => {
    const { gate, store, clock } = await open();
    const id = reviewIdOf(await gate.check(deploy())) as string;
    await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'ok' });
    const results = await Promise.all([gate.check(deploy()), gate.check(deploy()), gate.check(deploy())]);
    expect(results.filter((v) => v.outcome === 'dispatch')).toHaveLength(1);
  });

  it('a denial is final for the request', async () => {
    const { gate, store, clock } = await open();
    const id = reviewIdOf(await gate.check(deploy())) as string;
    await answerReview(store, clock, { id, answer: 'denied', person: 'ops', reason: 'not today' });
    const after = await gate.check(deploy());
    expect(after.outcome).toBe('rejected');
    expect(after.reasons[0]?.message).toContain('denied');
    expect(after.reasons[0]?.message).toContain('not today');
    expect(reviewIdOf(after)).toBe(id);
    expect(
      await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'x' }),
    ).toMatchObject({
      ok: false,
    });
  });

  it('expires into a refusal, never an approval; an approval lapses unused', async () => {
    const { gate, store, clock } = await open();
    const id = reviewIdOf(await gate.check(deploy())) as string;
    clock.advance(24 * 3600);
    const late = await gate.check(deploy());
    expect(late.outcome).toBe('rejected');
    expect(late.reasons[0]?.message).toContain(`review ${id} expired unanswered`);
    expect(
      await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'late' }),
    ).toMatchObject({
      ok: false,
      code: 'not_pending',
    });
    const fresh = reviewIdOf(late) as string;
    await answerReview(store, clock, { id: fresh, answer: 'approved', person: 'ops', reason: 'ok' });
    clock.advance(3600);
    expect((await gate.check(deploy())).outcome).toBe('rejected');
  });

  it('when: only calls the predicate names; a rule may set a shorter time-out', async () => {
    const { gate, store, clock } = await open();
    const other = await gate.check({ tool: 'wipe', args: { db: 'scratch' }, session: 's1' });
    expect(other.reasons.some((r) => r.code === 'review_required')).toBe(false);
    const main = await gate.check({ tool: 'wipe', args: { db: 'main' }, session: 's1' });
    const id = reviewIdOf(main) as string;
    const stored = await store.getReview(id);
    expect(stored ? stored.expires_at - stored.created_at : 0).toBe(600_000);
    clock.advance(600);
    expect(
      (await gate.check({ tool: 'wipe', args: { db: 'main' }, session: 's1' })).reasons[0]?.message,
    ).toContain('expired');
  });
});

describe('the deny ceiling escalates into a review', () => {
  it('files a request at the ceiling; approved, the call passes once', async () => {
    const { gate, store, clock } = await open({ denyCeiling: 2 });
    const call = { tool: 'wipe', args: { db: 'scratch' }, session: 's1' };
    await gate.check(call);
    const second = await gate.check(call);
    expect(second.escalation).toBe('ask_human');
    const id = reviewIdOf(second) as string;
    expect((await store.getReview(id))?.rule).toBe('deny_ceiling');
    const third = await gate.check(call);
    expect(reviewIdOf(third)).toBe(id);
    await answerReview(store, clock, { id, answer: 'approved', person: 'ops', reason: 'seen' });
    expect((await gate.check(call)).outcome).toBe('dispatch');
    expect((await gate.check(call)).outcome).toBe('rejected');
  });

  it('hard_deny files nothing', async () => {
    const { gate, store } = await open({ denyCeiling: 1, escalation: 'hard_deny' });
    const call = { tool: 'wipe', args: { db: 'scratch' }, session: 's1' };
    await gate.check(call);
    await gate.check(call);
    expect(await store.listReviews({ limit: 10 })).toEqual([]);
  });
});
