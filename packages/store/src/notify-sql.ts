// The review-notice outbox (core's review-notify.ts): one row per review request and webhook, with
// its attempts, last error and delivery time. A drainer claims due rows by moving next_ms forward
// with a conditional update (a lease), so two drainers never post the same delivery at once. The
// webhook is named, never stored by URL or headers: either may carry a secret. Both stores share
// the SQL; only parameter styles differ.
import type { NotificationAttempt, NotificationRecord } from '@tollgate/core';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function notificationsTable(db: Kysely<any>, int64: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('review_notifications')
    .addColumn('review_id', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_ms', int64)
    .addColumn('last_attempt_ms', int64)
    .addColumn('delivered_ms', int64)
    .addColumn('last_error', 'text')
    .addPrimaryKeyConstraint('review_notifications_pk', ['review_id', 'target'])
    .execute();
  await db.schema
    .createIndex('review_notifications_due')
    .on('review_notifications')
    .column('next_ms')
    .where('next_ms', 'is not', null)
    .execute();
}

export interface NotificationRow {
  review_id: string;
  target: string;
  attempts: number | string;
  next_ms: number | string | null;
  last_attempt_ms: number | string | null;
  delivered_ms: number | string | null;
  last_error: string | null;
}

const COLUMNS = 'review_id, target, attempts, next_ms, last_attempt_ms, delivered_ms, last_error';
/** At most this many targets per request (the config allows fewer). */
export const MAX_TARGETS = 32;
/** Errors are stored at most this long. */
export const MAX_ERROR = 500;

export function notificationRecord(row: NotificationRow): NotificationRecord {
  const n = (v: number | string | null) => (v === null ? undefined : Number(v));
  const next = n(row.next_ms);
  const last = n(row.last_attempt_ms);
  const delivered = n(row.delivered_ms);
  return {
    review_id: row.review_id,
    target: row.target,
    attempts: Number(row.attempts),
    ...(next !== undefined ? { next_at: next } : {}),
    ...(last !== undefined ? { last_attempt_at: last } : {}),
    ...(row.last_error !== null ? { last_error: row.last_error } : {}),
    ...(delivered !== undefined ? { delivered_at: delivered } : {}),
  };
}

/** (next_ms, last_attempt_ms, delivered_ms, last_error, review_id, target) for `record`. */
export function attemptValues(a: NotificationAttempt): unknown[] {
  return [
    a.delivered ? null : (a.next_at ?? null),
    a.at,
    a.delivered ? a.at : null,
    a.delivered ? null : (a.error ?? 'failed').slice(0, MAX_ERROR),
    a.review_id,
    a.target,
  ];
}

export const SQLITE = {
  enqueue: `INSERT INTO review_notifications (review_id, target, attempts, next_ms)
            VALUES (?, ?, 0, ?) ON CONFLICT (review_id, target) DO NOTHING`,
  due: `SELECT ${COLUMNS} FROM review_notifications WHERE next_ms IS NOT NULL AND next_ms <= ?
        ORDER BY next_ms LIMIT ?`,
  /** (lease, review_id, target, old next_ms) */
  claim: `UPDATE review_notifications SET next_ms = ? WHERE review_id = ? AND target = ? AND next_ms = ?`,
  record: `UPDATE review_notifications SET attempts = attempts + 1, next_ms = ?, last_attempt_ms = ?,
           delivered_ms = ?, last_error = ? WHERE review_id = ? AND target = ?`,
  next: 'SELECT MIN(next_ms) AS next FROM review_notifications WHERE next_ms IS NOT NULL',
  forReview: `SELECT ${COLUMNS} FROM review_notifications WHERE review_id = ? ORDER BY target`,
};

export const PG = {
  enqueue: {
    name: 'tg_notify_enqueue',
    text: `INSERT INTO review_notifications (review_id, target, attempts, next_ms)
           VALUES ($1, $2, 0, $3) ON CONFLICT (review_id, target) DO NOTHING`,
  },
  due: {
    name: 'tg_notify_due',
    text: `SELECT ${COLUMNS} FROM review_notifications WHERE next_ms IS NOT NULL AND next_ms <= $1
           ORDER BY next_ms LIMIT $2`,
  },
  claim: {
    name: 'tg_notify_claim',
    text: 'UPDATE review_notifications SET next_ms = $1 WHERE review_id = $2 AND target = $3 AND next_ms = $4',
  },
  record: {
    name: 'tg_notify_record',
    text: `UPDATE review_notifications SET attempts = attempts + 1, next_ms = $1, last_attempt_ms = $2,
           delivered_ms = $3, last_error = $4 WHERE review_id = $5 AND target = $6`,
  },
  next: {
    name: 'tg_notify_next',
    text: 'SELECT MIN(next_ms) AS next FROM review_notifications WHERE next_ms IS NOT NULL',
  },
  forReviews: {
    name: 'tg_notify_for_reviews',
    text: `SELECT ${COLUMNS} FROM review_notifications WHERE review_id = ANY($1::text[]) ORDER BY review_id, target`,
  },
};

/** Attaches each request's notifications (rows for several requests, any order). */
export function withNotifications<T extends { id: string }>(
  reviews: T[],
  rows: NotificationRow[],
): (T & { notifications?: NotificationRecord[] })[] {
  const by = new Map<string, NotificationRecord[]>();
  for (const row of rows) {
    const list = by.get(row.review_id) ?? [];
    list.push(notificationRecord(row));
    by.set(row.review_id, list);
  }
  return reviews.map((r) => {
    const list = by.get(r.id);
    return list === undefined ? r : { ...r, notifications: list };
  });
}
