// The kysely view of the database: one interface per table. JSON documents are stored as text so the
// audit chain verifies exactly the bytes that were written; the other columns exist to be indexed.
export interface ObservationTable {
  session: string;
  id: string;
  source_key: string;
  /** observed_at in epoch ms, for "newest first". */
  observed_ms: number;
  doc: string;
}

/** predictions and declines share one shape. */
export interface TicketTable {
  id: string;
  session: string;
  agent: string | null;
  call_digest: string;
  doc_digest: string;
  doc: string;
  created_at: number;
  consumed_at: number | null;
}

export interface AuditTable {
  seq: number;
  id: string;
  session: string;
  agent: string | null;
  kind: string;
  ref: string | null;
  at: string;
  at_ms: number | null;
  call_digest: string | null;
  hash: string;
  /** The whole row as JSON, hash fields included. */
  doc: string;
}

/**
 * One row per audit row: the columns reports aggregate (audit-facts.ts), narrow so a window scans
 * fast. Outcome rows carry their decision's agent and tool and point at it by ref_seq; a gated
 * decision points at the previous gated decision of the same call in the session by prev_seq.
 */
export interface AuditFactsTable {
  seq: number;
  at_ms: number;
  kind: string;
  session: string;
  agent: string | null;
  tool: string | null;
  call_digest: string | null;
  outcome: string | null;
  /** 1: a non-dry decision that dispatched, declined or was rejected. */
  gated: number;
  dry_run: number;
  would_reject: number;
  escalated: number;
  overridden: number;
  predicted: number;
  /** The first reason code of a decision. */
  reason: string | null;
  /** Ages of the oldest and newest evidence a decision verified, in ms. */
  evidence_max_ms: number | null;
  evidence_min_ms: number | null;
  /** Declined rows: how many attempted reads the ledger confirmed. */
  decline_attempts: number | null;
  /**
   * On a decline recorded with its suggested reads (migration 0012_facts_queryable): 1 when the rules suggested a read
   * and the session had made none of them, else 0; null on other rows and on older declines.
   */
  queryable_unread: number | null;
  directive_ms: number | null;
  matched: number;
  mismatched: number;
  unverifiable: number;
  brier_sum: number | null;
  brier_n: number;
  ref_seq: number | null;
  prev_seq: number | null;
  /** A decision carrying a prediction: the prediction cited a read the rule does not accept (1). */
  unaccepted: number;
  /** A decision carrying a prediction: when it was filed (its ticket's creation, else the decision). */
  filed_ms: number | null;
  /** …and the newest read in the session's ledger at that moment (NULL: none). */
  read_ms: number | null;
}

/** The rules of each decision row (kind decision or dry) and, copied, of the outcome completing it. */
export interface AuditRulesTable {
  seq: number;
  rule: string;
  kind: string;
  at_ms: number;
}

export interface RejectionTable {
  session: string;
  call_digest: string;
  count: number;
}

export interface OverrideTable {
  id: string;
  operator: string;
  reason: string;
  session: string | null;
  rule: string | null;
  call_digest: string | null;
  created_at: number;
  expires_at: number;
}

/**
 * The chain head: the newest row's seq and hash (0 and the genesis hash when empty), updated with
 * every append. On PostgreSQL also the one row every append locks, so instances take turns.
 */
export interface AuditHeadTable {
  id: number;
  seq: number;
  hash: string;
}

/** Facts about the store itself; `store_id` is a random id written once when the store is created. */
export interface StoreMetaTable {
  key: string;
  value: string;
}

export interface Database {
  observations: ObservationTable;
  predictions: TicketTable;
  declines: TicketTable;
  audit: AuditTable;
  audit_facts: AuditFactsTable;
  audit_rules: AuditRulesTable;
  rejections: RejectionTable;
  overrides: OverrideTable;
  audit_head: AuditHeadTable;
  store_meta: StoreMetaTable;
}

export type Dialect = 'sqlite' | 'postgres';
