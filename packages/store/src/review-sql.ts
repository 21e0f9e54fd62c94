// Review requests (core's review.ts): one row per request. The columns the gate filters and updates on
// (status, expiry, use) are their own; the request as filed is a JSON document, and the answer another.
// Answering and using up are conditional updates, so each happens at most once whoever races. Both
// stores share the SQL; only parameter styles differ.
import type { ReviewAnswer, ReviewQuery, ReviewRecord } from '@tollgate/core';
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function reviewsTable(db: Kysely<any>, int64: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('call_digest', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_ms', int64, (c) => c.notNull())
    .addColumn('expires_ms', int64, (c) => c.notNull())
    .addColumn('consumed_ms', int64)
    .addColumn('answer', 'text')
    .addColumn('doc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('reviews_call')
    .on('reviews')
    .columns(['session', 'call_digest', 'created_ms'])
    .execute();
  await db.schema.createIndex('reviews_created').on('reviews').columns(['created_ms']).execute();
}

/** At most this many requests per listing. */
export const MAX_LIST = 500;

export interface ReviewRow {
  id: string;
  session: string;
  agent: string | null;
  call_digest: string;
  status: string;
  created_ms: number | string;
  expires_ms: number | string;
  consumed_ms: number | string | null;
  answer: string | null;
  doc: string;
}

const COLUMNS = 'id, session, agent, call_digest, status, created_ms, expires_ms, consumed_ms, answer, doc';

/** Insert values in COLUMNS order. */
export function reviewValues(r: ReviewRecord): unknown[] {
  const { call, envelope, rails, approvers, rule } = r;
  const doc = JSON.stringify({
    rule,
    call,
    approvers,
    ...(envelope !== undefined ? { envelope } : {}),
    rails,
  });
  return [
    r.id,
    r.session,
    r.agent ?? null,
    r.call_digest,
    r.status,
    r.created_at,
    r.expires_at,
    null,
    null,
    doc,
  ];
}

/** The answer statement's values, in its order (both dialects). */
export function answerValues(a: ReviewAnswer): unknown[] {
  return [a.status, a.expires_at, answerJson(a), a.consumed_at ?? null, a.id, a.at];
}

export function answerJson(a: ReviewAnswer): string {
  return JSON.stringify({ answered_at: a.at, answered_by: a.person, answer_reason: a.reason });
}

export function reviewRecord(row: ReviewRow): ReviewRecord {
  const doc = JSON.parse(row.doc) as Pick<ReviewRecord, 'rule' | 'call' | 'approvers' | 'envelope' | 'rails'>;
  const answer = row.answer === null ? {} : (JSON.parse(row.answer) as Partial<ReviewRecord>);
  return {
    id: row.id,
    session: row.session,
    ...(row.agent !== null ? { agent: row.agent } : {}),
    call_digest: row.call_digest,
    ...doc,
    status: row.status as ReviewRecord['status'],
    created_at: Number(row.created_ms),
    expires_at: Number(row.expires_ms),
    ...answer,
    ...(row.consumed_ms !== null ? { consumed_at: Number(row.consumed_ms) } : {}),
  };
}

export function listLimit(query: ReviewQuery): number {
  return Math.max(1, Math.min(MAX_LIST, Math.floor(query.limit) || 1));
}

export const SQLITE = {
  insert: `INSERT INTO reviews (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  get: `SELECT ${COLUMNS} FROM reviews WHERE id = ?`,
  latest: `SELECT ${COLUMNS} FROM reviews WHERE session = ? AND call_digest = ?
           ORDER BY created_ms DESC, id DESC LIMIT 1`,
  list: `SELECT ${COLUMNS} FROM reviews WHERE (? IS NULL OR status = ?) AND (? IS NULL OR session = ?)
         AND (? IS NULL OR agent = ?) ORDER BY created_ms DESC, id DESC LIMIT ?`,
  /** (status, expires_ms, answer, consumed_ms, id, at) */
  answer: `UPDATE reviews SET status = ?, expires_ms = ?, answer = ?, consumed_ms = ?
           WHERE id = ? AND status = 'pending' AND expires_ms > ?`,
  /** (at, id, at) */
  consume: `UPDATE reviews SET consumed_ms = ?
            WHERE id = ? AND status = 'approved' AND consumed_ms IS NULL AND expires_ms > ?`,
};

export const PG = {
  insert: {
    name: 'tg_review_insert',
    text: `INSERT INTO reviews (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
  },
  get: { name: 'tg_review_get', text: `SELECT ${COLUMNS} FROM reviews WHERE id = $1` },
  latest: {
    name: 'tg_review_latest',
    text: `SELECT ${COLUMNS} FROM reviews WHERE session = $1 AND call_digest = $2
           ORDER BY created_ms DESC, id DESC LIMIT 1`,
  },
  list: {
    name: 'tg_review_list',
    text: `SELECT ${COLUMNS} FROM reviews WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR session = $2)
           AND ($3::text IS NULL OR agent = $3) ORDER BY created_ms DESC, id DESC LIMIT $4`,
  },
  /** ($1 status, $2 expires_ms, $3 answer, $4 consumed_ms, $5 id, $6 at) */
  answer: {
    name: 'tg_review_answer2',
    text: `UPDATE reviews SET status = $1, expires_ms = $2, answer = $3, consumed_ms = $4
           WHERE id = $5 AND status = 'pending' AND expires_ms > $6`,
  },
  /** ($1 at, $2 id) */
  consume: {
    name: 'tg_review_consume',
    text: `UPDATE reviews SET consumed_ms = $1
           WHERE id = $2 AND status = 'approved' AND consumed_ms IS NULL AND expires_ms > $1`,
  },
};

export function listParams(query: ReviewQuery, dialect: 'sqlite' | 'postgres'): unknown[] {
  const filters = [query.status ?? null, query.session ?? null, query.agent ?? null];
  const limit = listLimit(query);
  return dialect === 'postgres' ? [...filters, limit] : [...filters.flatMap((f) => [f, f]), limit];
}
