// Conformance cases for review requests (core's review.ts), run against every Store: filed, listed,
// answered at most once (with its audit row, atomically), and an approval used up exactly once.
import type { ReviewAnswer, ReviewRecord, Store } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { draft, newId } from './fixtures.js';

function request(patch: Partial<ReviewRecord> = {}): ReviewRecord {
  return {
    id: newId(),
    session: 's1',
    agent: 'alice',
    call_digest: 'd1',
    rule: 'deploy.review',
    call: { tool: 'deploy', args: { env: 'production' } },
    envelope: { irreducible: 'x' },
    rails: [{ code: 'review_required', message: 'm' }],
    approvers: ['operator'],
    status: 'pending',
    created_at: 1_000,
    expires_at: 10_000,
    ...patch,
  };
}

function answer(id: string, patch: Partial<ReviewAnswer> = {}): ReviewAnswer {
  return { id, status: 'approved', person: 'ops', reason: 'checked', at: 2_000, expires_at: 8_000, ...patch };
}

function reviewRow(session: string) {
  const { outcome: _o, ...row } = draft(session, { kind: 'review' });
  return row;
}

export function reviewConformance(current: () => Store): void {
  describe('reviews', () => {
    it('stores a request as filed and finds the newest for a call', async () => {
      const store = current();
      const older = request();
      const newer = request({ created_at: 2_000 });
      await store.insertReview(older);
      await store.insertReview(newer);
      await store.insertReview(request({ session: 's2', created_at: 3_000 }));
      expect(await store.getReview(older.id)).toEqual(older);
      expect(await store.latestReview('s1', 'd1')).toEqual(newer);
      expect(await store.latestReview('s1', 'other')).toBeUndefined();
      expect(await store.getReview('nope')).toBeUndefined();
      const listed = await store.listReviews({ session: 's1', limit: 10 });
      expect(listed.map((r) => r.id)).toEqual([newer.id, older.id]);
      expect(await store.listReviews({ status: 'approved', limit: 10 })).toEqual([]);
      expect(await store.listReviews({ limit: 1 })).toHaveLength(1);
    });

    it('answers a pending request once, with its audit row in the same transaction', async () => {
      const store = current();
      const r = request();
      await store.insertReview(r);
      const row = await store.answerReview(answer(r.id), reviewRow('s1'));
      expect(row?.kind).toBe('review');
      expect(await store.answerReview(answer(r.id, { status: 'denied' }), reviewRow('s1'))).toBeUndefined();
      const stored = await store.getReview(r.id);
      expect(stored).toMatchObject({
        status: 'approved',
        answered_by: 'ops',
        answer_reason: 'checked',
        expires_at: 8_000,
      });
      expect((await store.listAudit({ kind: 'review' })).length).toBe(1);
    });

    it('does not answer an expired request', async () => {
      const store = current();
      const r = request({ expires_at: 2_000 });
      await store.insertReview(r);
      expect(await store.answerReview(answer(r.id, { at: 2_000 }), reviewRow('s1'))).toBeUndefined();
      expect((await store.getReview(r.id))?.status).toBe('pending');
      expect(await store.listAudit({ kind: 'review' })).toEqual([]);
    });

    it('uses an approval up exactly once, never a pending, denied or lapsed one', async () => {
      const store = current();
      const pending = request();
      const denied = request();
      const approved = request();
      const lapsed = request();
      for (const r of [pending, denied, approved, lapsed]) await store.insertReview(r);
      await store.answerReview(answer(denied.id, { status: 'denied' }), reviewRow('s1'));
      await store.answerReview(answer(approved.id), reviewRow('s1'));
      await store.answerReview(answer(lapsed.id, { expires_at: 3_000 }), reviewRow('s1'));
      const use = (id: string, at = 4_000) => store.commitDecision({ kind: 'review', id }, at, draft('s1'));
      expect(await use(pending.id)).toBeUndefined();
      expect(await use(denied.id)).toBeUndefined();
      expect(await use(lapsed.id)).toBeUndefined();
      const results = await Promise.all([use(approved.id), use(approved.id), use(approved.id)]);
      expect(results.filter((r) => r !== undefined)).toHaveLength(1);
      expect((await store.getReview(approved.id))?.consumed_at).toBe(4_000);
      expect((await store.listAudit({ kind: 'decision' })).length).toBe(1);
    });

    it('records an approval given and used at once (the host ran the call): it lets nothing through', async () => {
      const store = current();
      const r = request();
      await store.insertReview(r);
      expect(await store.answerReview(answer(r.id, { consumed_at: 2_000 }), reviewRow('s1'))).toBeDefined();
      expect(await store.getReview(r.id)).toMatchObject({ status: 'approved', consumed_at: 2_000 });
      expect(await store.commitDecision({ kind: 'review', id: r.id }, 2_500, draft('s1'))).toBeUndefined();
    });
  });

  describe('review notifications (the outbox)', () => {
    it('queues once per target, claims each due delivery for one drainer, records attempts', async () => {
      const store = current();
      const r = request();
      await store.insertReview(r);
      await store.enqueueNotifications(r.id, ['ops-json', 'ops-slack'], 1_000);
      await store.enqueueNotifications(r.id, ['ops-json'], 5_000);
      expect(await store.nextNotificationAt()).toBe(1_000);
      expect(await store.claimNotifications(999, 60_000, 10)).toEqual([]);
      const [a, b] = await Promise.all([
        store.claimNotifications(1_000, 60_000, 10),
        store.claimNotifications(1_000, 60_000, 10),
      ]);
      const claimed = [...(a ?? []), ...(b ?? [])];
      expect(claimed.map((n) => n.target).sort()).toEqual(['ops-json', 'ops-slack']);
      expect(claimed.every((n) => n.attempts === 0)).toBe(true);
      expect(await store.claimNotifications(59_999, 70_000, 10)).toEqual([]);
      await store.recordNotification({ review_id: r.id, target: 'ops-json', at: 2_000, delivered: true });
      await store.recordNotification({
        review_id: r.id,
        target: 'ops-slack',
        at: 2_000,
        delivered: false,
        error: 'HTTP 500',
        next_at: 3_000,
      });
      const stored = await store.getReview(r.id);
      expect(stored?.notifications).toEqual([
        { review_id: r.id, target: 'ops-json', attempts: 1, last_attempt_at: 2_000, delivered_at: 2_000 },
        {
          review_id: r.id,
          target: 'ops-slack',
          attempts: 1,
          next_at: 3_000,
          last_attempt_at: 2_000,
          last_error: 'HTTP 500',
        },
      ]);
      expect((await store.listReviews({ limit: 5 }))[0]?.notifications).toHaveLength(2);
      expect(await store.nextNotificationAt()).toBe(3_000);
      const retry = await store.claimNotifications(3_000, 9_000, 10);
      expect(retry).toMatchObject([{ target: 'ops-slack', attempts: 1 }]);
      await store.recordNotification({
        review_id: r.id,
        target: 'ops-slack',
        at: 3_500,
        delivered: false,
        error: 'refused',
      });
      expect(await store.nextNotificationAt()).toBeUndefined();
      expect((await store.getReview(r.id))?.notifications?.[1]).toMatchObject({
        attempts: 2,
        last_error: 'refused',
      });
      expect((await store.getReview(r.id))?.status).toBe('pending');
    });
  });
}
