// What each session's ledger holds (observations, excerpt bytes), counted in the transaction that
// appends an observation, so a cap holds across processes and instances sharing the store; and how
// many tickets a session keeps filed and unused. Both stores share the SQL; only parameter styles
// and the atomic step differ (SQLite: one IMMEDIATE transaction; PostgreSQL: one statement).
import type { LedgerAdmission, LedgerCaps, LedgerUsage } from '@tollgate/core';

/** The usage row as both drivers return it (bigint columns as numbers: pg-open parses int8). */
export interface UsageRow {
  observations: number;
  excerpt_bytes: number;
}

export const usageOf = (row: UsageRow | undefined): LedgerUsage => ({
  observations: Number(row?.observations ?? 0),
  excerptBytes: Number(row?.excerpt_bytes ?? 0),
});

/** Which cap a session at `usage` would pass by appending an excerpt of `bytes`; undefined when none. */
export function capPassed(
  usage: LedgerUsage,
  bytes: number,
  caps: LedgerCaps,
): Extract<LedgerAdmission, { ok: false }>['cap'] | undefined {
  if (usage.observations + 1 > caps.observations) return 'observations';
  if (usage.excerptBytes + bytes > caps.excerptBytes) return 'excerpt_bytes';
  return undefined;
}

export const SQLITE = {
  usage: 'SELECT observations, excerpt_bytes FROM session_usage WHERE session = ?',
  count: `INSERT INTO session_usage (session, observations, excerpt_bytes) VALUES (?, 1, ?)
          ON CONFLICT (session) DO UPDATE SET observations = observations + 1,
          excerpt_bytes = excerpt_bytes + excluded.excerpt_bytes`,
  openTickets: `SELECT (SELECT count(*) FROM predictions WHERE session = ? AND consumed_at IS NULL)
                     + (SELECT count(*) FROM declines WHERE session = ? AND consumed_at IS NULL)`,
};

export const PG = {
  /**
   * Counts the observation and appends it in one statement, only when the session stays within
   * both caps ($7 observations, $8 excerpt bytes): no row back means refused, nothing written.
   */
  insertWithin: {
    name: 'tg_obs_insert_within',
    text: `WITH counted AS (
             INSERT INTO session_usage AS u (session, observations, excerpt_bytes) VALUES ($1, 1, $6)
             ON CONFLICT (session) DO UPDATE SET observations = u.observations + 1,
               excerpt_bytes = u.excerpt_bytes + excluded.excerpt_bytes
             WHERE u.observations + 1 <= $7 AND u.excerpt_bytes + excluded.excerpt_bytes <= $8
             RETURNING u.observations, u.excerpt_bytes)
           INSERT INTO observations (session, id, source_key, observed_ms, doc)
           SELECT $1, $2, $3, $4, $5 FROM counted
           RETURNING (SELECT observations FROM counted) AS observations,
                     (SELECT excerpt_bytes FROM counted) AS excerpt_bytes`,
  },
  usage: {
    name: 'tg_usage_get',
    text: 'SELECT observations, excerpt_bytes FROM session_usage WHERE session = $1',
  },
  openTickets: {
    name: 'tg_open_tickets',
    text: `SELECT (SELECT count(*) FROM predictions WHERE session = $1 AND consumed_at IS NULL)
                + (SELECT count(*) FROM declines WHERE session = $1 AND consumed_at IS NULL) AS open`,
  },
};
