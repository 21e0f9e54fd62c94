// The SQLite hot paths as prepared better-sqlite3 statements, compiled once per connection: the gate
// budget (p50 ≤ 150 µs for a full irreversible check) leaves no room for building SQL per call. Each
// is prepared on first use: a hook process opens the store for one decision and uses a few of them.
import type BetterSqlite3 from 'better-sqlite3';
import { factsInsertSql, outcomeRulesSql } from './audit-facts.js';
import { rollupUpsertSql } from './audit-rollup.js';

export type SqliteStatements = ReturnType<typeof prepareStatements>;

export function prepareStatements(db: BetterSqlite3.Database) {
  const ticket = (table: 'predictions' | 'declines') =>
    lazily({
      insert: () =>
        db.prepare(
          `INSERT INTO ${table} (id, session, agent, call_digest, doc_digest, doc, created_at, consumed_at)
       VALUES (@id, @session, @agent, @call_digest, @doc_digest, @doc, @created_at, @consumed_at)
       ON CONFLICT (session, call_digest, doc_digest) DO NOTHING`,
        ),
      insertConsumed: () =>
        db.prepare(
          `INSERT INTO ${table} (id, session, agent, call_digest, doc_digest, doc, created_at, consumed_at)
       VALUES (@id, @session, @agent, @call_digest, @doc_digest, @doc, @created_at, @consumed_at)
       ON CONFLICT (session, call_digest, doc_digest) DO NOTHING`,
        ),
      findOpen: () =>
        db.prepare(
          `SELECT * FROM ${table} WHERE session = ? AND call_digest = ? AND consumed_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT 1`,
        ),
      findLatest: () =>
        db.prepare(
          `SELECT * FROM ${table} WHERE session = ? AND call_digest = ? ORDER BY created_at DESC, id DESC LIMIT 1`,
        ),
      consume: () => db.prepare(`UPDATE ${table} SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL`),
    });
  return lazily({
    insertObservation: () =>
      db.prepare(
        `INSERT INTO observations (session, id, source_key, observed_ms, doc)
       VALUES (@session, @id, @source_key, @observed_ms, @doc)`,
      ),
    getObservation: () => db.prepare('SELECT doc FROM observations WHERE session = ? AND id = ?').pluck(),
    observationsBySource: () =>
      db
        .prepare(
          `SELECT doc FROM observations WHERE session = ? AND source_key = ?
         ORDER BY observed_ms DESC, id DESC LIMIT ?`,
        )
        .pluck(),
    predictions: () => ticket('predictions'),
    lastConsumedAt: () =>
      db.prepare('SELECT max(consumed_at) FROM predictions WHERE session = ? AND call_digest = ?').pluck(),
    declines: () => ticket('declines'),
    openTickets: () =>
      db.prepare(
        `SELECT 'prediction' AS kind, * FROM predictions WHERE session = ? AND consumed_at IS NULL
       UNION ALL SELECT 'decline' AS kind, * FROM declines WHERE session = ? AND consumed_at IS NULL
       ORDER BY created_at DESC, id DESC LIMIT ?`,
      ),
    auditHead: () => db.prepare('SELECT seq, hash FROM audit_head WHERE id = 1'),
    setAuditHead: () => db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1'),
    insertAudit: () =>
      db.prepare(
        `INSERT INTO audit (seq, id, session, agent, kind, ref, at, at_ms, call_digest, hash, doc)
       VALUES (@seq, @id, @session, @agent, @kind, @ref, @at, @at_ms, @call_digest, @hash, @doc)`,
      ),
    // The report tables (audit-facts.ts), written in the same transaction as the audit row.
    insertFacts: () => db.prepare(factsInsertSql(() => '?', 'sqlite')),
    insertRules: () =>
      db.prepare(`INSERT INTO audit_rules (seq, rule, kind, at_ms) SELECT ?, value, ?, ? FROM json_each(?)`),
    copyOutcomeRules: () => db.prepare(outcomeRulesSql(() => '?')),
    // The day rollups (audit-rollup.ts): the row added to its day's sums, after its facts and rules.
    upsertRollup: () => db.prepare(rollupUpsertSql(() => '?')),
    auditBySeq: () => db.prepare('SELECT doc FROM audit WHERE seq = ?').pluck(),
    recentDecisions: () =>
      db
        .prepare(
          "SELECT doc FROM audit WHERE call_digest = ? AND session = ? AND kind = 'decision' ORDER BY seq DESC LIMIT ?",
        )
        .pluck(),
    // The head record and what is stored under it, in one statement (one snapshot).
    chainHead: () =>
      db.prepare(
        `SELECT h.seq AS seq, h.hash AS hash, (SELECT count(*) FROM audit) AS rows,
              (SELECT coalesce(max(seq), 0) FROM audit) AS newest_seq
       FROM audit_head h WHERE h.id = 1`,
      ),
    storeId: () => db.prepare("SELECT value FROM store_meta WHERE key = 'store_id'").pluck(),
    auditInOrder: () =>
      db.prepare(
        'SELECT seq, id, session, agent, kind, ref, at_ms, call_digest, hash, doc FROM audit ORDER BY seq',
      ),
    bumpRejections: () =>
      db
        .prepare(
          `INSERT INTO rejections (session, call_digest, count) VALUES (?, ?, 1)
         ON CONFLICT (session, call_digest) DO UPDATE SET count = rejections.count + 1
         RETURNING count`,
        )
        .pluck(),
    getRejections: () =>
      db.prepare('SELECT count FROM rejections WHERE session = ? AND call_digest = ?').pluck(),
    resetRejections: () => db.prepare('DELETE FROM rejections WHERE session = ? AND call_digest = ?'),
    insertOverride: () =>
      db.prepare(
        `INSERT INTO overrides (id, operator, reason, session, rule, call_digest, created_at, expires_at)
       VALUES (@id, @operator, @reason, @session, @rule, @call_digest, @created_at, @expires_at)`,
      ),
    // Each scope field set on an override must match; an unset one matches anything.
    findOverrides: () =>
      db.prepare(
        `SELECT * FROM overrides WHERE expires_at > @now
         AND (session IS NULL OR session = @session)
         AND (rule IS NULL OR rule IN (SELECT value FROM json_each(@rules)))
         AND (call_digest IS NULL OR call_digest = @call_digest)
       ORDER BY created_at DESC, id DESC`,
      ),
  });
}

/** An object whose every value is made by its thunk on first read, then kept as a plain value. */
function lazily<M extends Record<string, () => unknown>>(makers: M): { [K in keyof M]: ReturnType<M[K]> } {
  const out = {} as { [K in keyof M]: ReturnType<M[K]> };
  for (const key of Object.keys(makers) as (keyof M)[]) {
    Object.defineProperty(out, key, {
      configurable: true,
      enumerable: true,
      get() {
        const value = makers[key]?.();
        Object.defineProperty(out, key, { value, enumerable: true });
        return value;
      },
    });
  }
  return out;
}
