// The PostgreSQL hot paths as named statements: pg prepares each once per connection and then sends
// only the name and the values.
import { factsInsertSql, outcomeRulesSql } from './audit-facts.js';
import { rollupUpsertSql } from './audit-rollup.js';

const ticketColumns = 'id, session, agent, call_digest, doc_digest, doc, created_at, consumed_at';

function ticket(table: 'predictions' | 'declines') {
  return {
    insert: {
      name: `tg_${table}_insert`,
      text: `INSERT INTO ${table} (${ticketColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (session, call_digest, doc_digest) DO NOTHING`,
    },
    insertConsumed: {
      name: `tg_${table}_insert_consumed`,
      text: `INSERT INTO ${table} (${ticketColumns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT (session, call_digest, doc_digest) DO NOTHING`,
    },
    findOpen: {
      name: `tg_${table}_find_open`,
      text: `SELECT ${ticketColumns} FROM ${table} WHERE session = $1 AND call_digest = $2 AND consumed_at IS NULL
             ORDER BY created_at DESC, id DESC LIMIT 1`,
    },
    findLatest: {
      name: `tg_${table}_find_latest`,
      text: `SELECT ${ticketColumns} FROM ${table} WHERE session = $1 AND call_digest = $2
             ORDER BY created_at DESC, id DESC LIMIT 1`,
    },
    consume: {
      name: `tg_${table}_consume`,
      text: `UPDATE ${table} SET consumed_at = $2 WHERE id = $1 AND consumed_at IS NULL`,
    },
  };
}

export type TicketQueries = ReturnType<typeof ticket>;

export const q = {
  insertObservation: {
    name: 'tg_obs_insert',
    text: 'INSERT INTO observations (session, id, source_key, observed_ms, doc) VALUES ($1, $2, $3, $4, $5)',
  },
  getObservation: { name: 'tg_obs_get', text: 'SELECT doc FROM observations WHERE session = $1 AND id = $2' },
  observationsBySource: {
    name: 'tg_obs_by_source',
    text: `SELECT doc FROM observations WHERE session = $1 AND source_key = $2
           ORDER BY observed_ms DESC, id DESC LIMIT $3`,
  },
  predictions: ticket('predictions'),
  lastConsumedAt: {
    name: 'tg_predictions_last_consumed',
    text: 'SELECT max(consumed_at) AS at FROM predictions WHERE session = $1 AND call_digest = $2',
  },
  declines: ticket('declines'),
  // Locks the head row and reads it. Under READ COMMITTED, a row locked FOR UPDATE after waiting is
  // re-read at its newest committed version, so the head seen is the one the previous append left.
  auditLockAndHead: {
    name: 'tg_audit_head_lock',
    text: 'SELECT seq, hash FROM audit_head WHERE id = 1 FOR UPDATE',
  },
  setAuditHead: {
    name: 'tg_audit_head_set',
    text: 'UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1',
  },
  insertAudit: {
    name: 'tg_audit_insert',
    text: `INSERT INTO audit (seq, id, session, agent, kind, ref, at, at_ms, call_digest, hash, doc)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
  },
  // The report tables (audit-facts.ts), written in the same transaction as the audit row.
  insertFacts: { name: 'tg_audit_facts_insert', text: factsInsertSql((i) => `$${i}`, 'postgres') },
  insertRules: {
    name: 'tg_audit_rules_insert',
    text: 'INSERT INTO audit_rules (seq, rule, kind, at_ms) SELECT $1::bigint, unnest($4::text[]), $2::text, $3::bigint',
  },
  copyOutcomeRules: { name: 'tg_audit_rules_copy', text: outcomeRulesSql((i) => `$${i}`) },
  // The day rollups (audit-rollup.ts): the row added to its day's sums, after its facts and rules.
  upsertRollup: { name: 'tg_audit_rollup_upsert', text: rollupUpsertSql((i) => `$${i}`) },
  auditBySeq: { name: 'tg_audit_by_seq', text: 'SELECT doc FROM audit WHERE seq = $1' },
  openTickets: {
    name: 'tg_open_tickets',
    text: `SELECT 'prediction' AS kind, ${ticketColumns} FROM predictions WHERE session = $1 AND consumed_at IS NULL
           UNION ALL SELECT 'decline' AS kind, ${ticketColumns} FROM declines WHERE session = $1 AND consumed_at IS NULL
           ORDER BY created_at DESC, id DESC LIMIT $2`,
  },
  recentDecisions: {
    name: 'tg_recent_decisions',
    text: "SELECT doc FROM audit WHERE call_digest = $1 AND session = $2 AND kind = 'decision' ORDER BY seq DESC LIMIT $3",
  },
  // The head record and what is stored under it, in one statement (one snapshot).
  chainHead: {
    name: 'tg_audit_chain_head',
    text: `SELECT h.seq AS seq, h.hash AS hash, (SELECT count(*) FROM audit) AS rows,
                  (SELECT coalesce(max(seq), 0) FROM audit) AS newest_seq
           FROM audit_head h WHERE h.id = 1`,
  },
  storeId: { name: 'tg_store_id', text: "SELECT value FROM store_meta WHERE key = 'store_id'" },
  getRejections: {
    name: 'tg_rej_get',
    text: 'SELECT count FROM rejections WHERE session = $1 AND call_digest = $2',
  },
  bumpRejections: {
    name: 'tg_rej_bump',
    text: `INSERT INTO rejections (session, call_digest, count) VALUES ($1, $2, 1)
           ON CONFLICT (session, call_digest) DO UPDATE SET count = rejections.count + 1 RETURNING count`,
  },
  resetRejections: {
    name: 'tg_rej_reset',
    text: 'DELETE FROM rejections WHERE session = $1 AND call_digest = $2',
  },
  insertOverride: {
    name: 'tg_ovr_insert',
    text: `INSERT INTO overrides (id, operator, reason, session, rule, call_digest, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  },
  // Each scope field set on an override must match; an unset one matches anything.
  findOverrides: {
    name: 'tg_ovr_find',
    text: `SELECT * FROM overrides WHERE expires_at > $4
             AND (session IS NULL OR session = $1)
             AND (rule IS NULL OR rule = ANY($2::text[]))
             AND (call_digest IS NULL OR call_digest = $3)
           ORDER BY created_at DESC, id DESC`,
  },
};
