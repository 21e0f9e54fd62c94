// The ports core needs from the outside world. Core imports no driver: adapters hand it a Store and,
// in tests, a Clock. Every Store implementation runs the same conformance suite (packages/store).
import type { AuditRow, Decline, Observation, Prediction } from '@tollgate/contracts';
import type { ReportQuery, RuleHistory, StoreReport } from './report-types.js';

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** A prediction or decline filed for one call digest, before or after it was used. */
export interface TicketRecord<T> {
  id: string;
  session: string;
  agent?: string;
  call_digest: string;
  /** sha256 of the canonical document: an inline envelope is single-use by (call_digest, doc_digest). */
  doc_digest: string;
  doc: T;
  created_at: number;
  consumed_at?: number;
}

export type PredictionRecord = TicketRecord<Prediction>;

/** What a dispatch or decline uses up: a ticket filed earlier (by id), or an inline one to insert consumed. */
export type Consumption =
  | { kind: 'prediction' | 'decline'; id: string }
  | { kind: 'prediction' | 'decline'; insert: TicketRecord<Prediction | Decline> }
  /** A person's approval (review.ts): used up iff approved, not yet used and not expired at `at`. */
  | { kind: 'review'; id: string };
export type DeclineRecord = TicketRecord<Decline>;
/** An unconsumed ticket of either kind (see Store.openTickets). */
export type OpenTicket = ({ kind: 'prediction' } & PredictionRecord) | ({ kind: 'decline' } & DeclineRecord);

/** An audit row before the store chains it: the store assigns seq, prev_hash and hash atomically. */
export type AuditDraft = Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'>;

export interface AuditQuery {
  session?: string;
  agent?: string;
  /** ISO date-time or epoch ms: rows at or after it. */
  since?: number;
  kind?: AuditRow['kind'];
  /** Outcome rows completing this decision row. */
  ref?: string;
  /** Newest `limit` rows, still returned oldest first. */
  limit?: number;
}

/** A window over the audit for export and replay: [since, until) in epoch ms. */
export interface ExportQuery {
  since?: number;
  until?: number;
  session?: string;
  agent?: string;
  kind?: AuditRow['kind'];
}

export type ChainCheck =
  | { ok: true; rows: number }
  | { ok: false; rows: number; broken_at: { seq: number; id?: string; problem: string } };

/**
 * The chain head as the store records it (updated with every append) beside what the audit table holds:
 * a deleted tail leaves `newest_seq` below `seq`; an older copy of the whole store has both lower.
 */
export interface ChainHead {
  /** The newest appended row's seq (0 when nothing was appended) and its hash (the genesis hash then). */
  seq: number;
  hash: string;
  /** How many audit rows are stored, and the newest stored row's seq (0 when none). */
  rows: number;
  newest_seq: number;
}

/** A window over a session's ledger: events at or after `since` (epoch ms, 0 for all), the newest `limit`. */
export interface LedgerWindow {
  since: number;
  limit: number;
  /**
   * Only events of these tools (exact names), when given: a read of `Read` is not pushed out of the
   * window by a thousand shell reads. A tool read is `{tool, args}`; shell reads are tool `shell`.
   */
  tools?: readonly string[];
}

/** One window of `Store.ledgerWindows`: observations or dispatched calls. */
export interface LedgerRequest {
  kind: 'observed' | 'dispatched';
  query: LedgerWindow;
}

/** The answers to `Store.ledgerWindows`, one per request in order. */
export type LedgerWindows = (Observation[] | DispatchRecord[])[];

/** A call the gate let through, as its decision row recorded it. */
export interface DispatchRecord {
  /** The decision row's id. */
  id: string;
  /** Epoch ms of the decision. */
  at: number;
  tool: string;
  action?: string;
  /** The call's args; absent when the row kept only a preview of a very large call. */
  args?: Record<string, unknown>;
}

/** The most a session's ledger may hold. */
export interface LedgerCaps {
  observations: number;
  /** The sum of the stored excerpts' UTF-8 bytes. */
  excerptBytes: number;
}

/** What a session's ledger holds, counted as observations were appended within caps. */
export interface LedgerUsage {
  observations: number;
  excerptBytes: number;
}

export type LedgerAdmission =
  | { ok: true; usage: LedgerUsage }
  | { ok: false; usage: LedgerUsage; cap: 'observations' | 'excerpt_bytes' };

export interface OverrideRecord {
  id: string;
  operator: string;
  reason: string;
  session?: string;
  rule?: string;
  call_digest?: string;
  created_at: number;
  expires_at: number;
}

/** Where a review request stands; `expired` is computed from expires_at, never stored. */
export type ReviewStatus = 'pending' | 'approved' | 'denied';

/** A call waiting for a person (review.ts): filed by the gate, answered at most once. */
export interface ReviewRecord {
  id: string;
  session: string;
  agent?: string;
  call_digest: string;
  /** The rule that asked for review, or `deny_ceiling` when the ceiling escalated. */
  rule: string;
  /** The call as the decision row keeps it, the prediction or decline it carried (if any), its rails. */
  call: unknown;
  envelope?: unknown;
  rails?: unknown;
  /** Who may answer: `operator` (a person, or an operator token). */
  approvers: string[];
  status: ReviewStatus;
  created_at: number;
  /** Pending: when the request expires into a refusal. Approved: when the approval lapses unused. */
  expires_at: number;
  answered_at?: number;
  answered_by?: string;
  answer_reason?: string;
  consumed_at?: number;
  /** How announcing it went, one entry per webhook (review-notify.ts); set by getReview and listReviews. */
  notifications?: NotificationRecord[];
}

/**
 * One webhook's delivery of one review request (the outbox, review-notify.ts). `next_at` is when it
 * is due (again); absent once delivered or given up. Never holds the URL or its headers.
 */
export interface NotificationRecord {
  review_id: string;
  /** The webhook's name (config notify.webhooks[].name, or webhook-<n>@host). */
  target: string;
  attempts: number;
  next_at?: number;
  last_attempt_at?: number;
  last_error?: string;
  delivered_at?: number;
}

/** What one attempt did (Store.recordNotification). */
export interface NotificationAttempt {
  review_id: string;
  target: string;
  at: number;
  delivered: boolean;
  error?: string;
  /** When to try again; absent when delivered or given up. */
  next_at?: number;
}

/** A person's answer to a pending review (Store.answerReview). */
export interface ReviewAnswer {
  id: string;
  status: 'approved' | 'denied';
  person: string;
  reason: string;
  at: number;
  /** The new expires_at: an approval lapses unused after it; a denial keeps the request's. */
  expires_at: number;
  /**
   * Set when the approval is used up by the same write: the host already ran the call after a person
   * approved it in the host's own prompt (review-answer.ts, hostApproved), so it lets nothing else through.
   */
  consumed_at?: number;
}

export interface ReviewQuery {
  status?: ReviewStatus;
  session?: string;
  agent?: string;
  limit: number;
}

/** A path the session wrote (Store.writtenUnder); `pending`: a background job's write that may not have landed yet. */
export interface WrittenFile {
  path: string;
  pending: boolean;
}

export interface Store {
  /** Ledger: append one observation. */
  insertObservation(observation: Observation): Promise<void>;
  getObservation(session: string, id: string): Promise<Observation | undefined>;
  /** Newest first: the session's observations whose source_key equals `sourceKey`. */
  findObservationsBySource(session: string, sourceKey: string, limit: number): Promise<Observation[]>;

  /**
   * Files a ticket. False when the same document is already filed for the same call in the same
   * session (unique on session + call_digest + doc_digest), used or not.
   */
  insertPrediction(record: PredictionRecord): Promise<boolean>;
  insertDecline(record: DeclineRecord): Promise<boolean>;
  /** Newest unconsumed ticket for (session, call_digest), if any. */
  findOpenPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined>;
  findOpenDecline(session: string, callDigest: string): Promise<DeclineRecord | undefined>;
  /**
   * The session's unconsumed predictions and declines, whatever call they bind to, newest first (at
   * most `limit`): how a refusal finds a ticket filed for a different call.
   */
  openTickets(session: string, limit: number): Promise<OpenTicket[]>;
  /**
   * When a prediction for (session, call_digest) was last used up: max(consumed_at) over its
   * predictions, undefined when none was. Evidence observed at or before it cannot back another
   * dispatch of the same call.
   */
  lastConsumedAt(session: string, callDigest: string): Promise<number | undefined>;
  /** Newest ticket for (session, call_digest) whether used or not (to say "already used"). */
  findLatestPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined>;
  /**
   * Marks the ticket consumed iff it is not yet: true for exactly one caller, across processes and
   * gate instances sharing the store (a conditional update, never process memory).
   */
  consumePrediction(id: string, at: number): Promise<boolean>;
  consumeDecline(id: string, at: number): Promise<boolean>;
  /**
   * Inserts an inline (envelope) ticket already consumed. False when the same document was already
   * filed or used for the same call in the same session (unique on session + call_digest + doc_digest).
   */
  insertConsumedPrediction(record: PredictionRecord): Promise<boolean>;
  insertConsumedDecline(record: DeclineRecord): Promise<boolean>;

  /**
   * Consumes a ticket and appends the decision row that uses it in ONE transaction: both happen or
   * neither. Undefined when the ticket was already consumed (another dispatch won); nothing is written.
   */
  commitDecision(consumption: Consumption, at: number, draft: AuditDraft): Promise<AuditRow | undefined>;

  /** Appends rows in order, chaining each to the previous one; returns them as stored. */
  appendAudit(drafts: AuditDraft[]): Promise<AuditRow[]>;
  getAudit(id: string): Promise<AuditRow | undefined>;
  /** Oldest first. */
  listAudit(query: AuditQuery): Promise<AuditRow[]>;
  /** Walks the whole chain and reports the first broken row. */
  verifyAudit(): Promise<ChainCheck>;

  /** Consecutive rejections of one call in one session (the deny ceiling); 0 when none. */
  getRejections(session: string, callDigest: string): Promise<number>;
  /** Adds one to the streak and returns the new count. */
  bumpRejections(session: string, callDigest: string): Promise<number>;
  resetRejections(session: string, callDigest: string): Promise<void>;

  insertOverride(record: OverrideRecord): Promise<void>;
  /** Overrides still in force at `now` whose scope covers this session and one of the rules or the digest. */
  findOverrides(
    session: string,
    rules: readonly string[],
    callDigest: string,
    now: number,
  ): Promise<OverrideRecord[]>;

  // --- Store identity and chain head (for anchors kept outside the store: tollgate audit anchor,
  // audit verify --against, and the CLI's store pin). ---
  /** The random id written once when the store was created: a store deleted and recreated, or swapped, has another. */
  storeId(): Promise<string>;
  /** What the chain head records and what is stored under it, read from one snapshot. */
  auditHead(): Promise<ChainHead>;
  /** The row stored at this seq, undefined when there is none. */
  getAuditBySeq(seq: number): Promise<AuditRow | undefined>;

  /**
   * The newest decision rows for one call in one session, newest first (at most `limit`): how a
   * host's post-call event finds the decision its pre-call event got, without listing the session.
   */
  recentDecisions(session: string, callDigest: string, limit: number): Promise<AuditRow[]>;
  /**
   * Takes the pairing of a host's post-tool event with its tool-use id (`host_ref`) in this session:
   * true for the first caller only, across processes and gate instances sharing the store (a unique
   * key, never process memory). Each pre-tool decision thus vouches for at most one post event.
   */
  claimHostPost(session: string, hostRef: string, at: number): Promise<boolean>;

  // --- Reports (the calibration loop): aggregated in the database, never rows pulled into memory. ---
  /** The calibration report over a window (see report-types.ts); `never_fired` and times are core's. */
  report(query: ReportQuery): Promise<StoreReport>;
  /**
   * One rule's recent record (fires since `since`, its newest `limit` mismatched claims), for the
   * rails; with `agent`, only that agent's rows.
   */
  ruleHistory(rule: string, since: number, limit: number, agent?: string): Promise<RuleHistory>;
  /**
   * Audit rows matching `query` oldest first, as the JSON text stored, a page at a time (keyset on
   * seq): constant memory whatever the size, for export and replay.
   */
  exportAudit(query: ExportQuery): AsyncIterable<string[]>;

  // --- Files the session wrote and read (scripts it wrote are refused until read again). ---
  /**
   * Record that the session wrote (a decided call that writes them passed) or read these absolute
   * paths at `at`. `pending`: a write that may land at any later time (a background job's), which
   * no read clears — the path stays written since read for the rest of the session, and a later
   * `write` does not undo that.
   */
  recordFileEvents(
    session: string,
    kind: 'write' | 'read' | 'pending',
    paths: readonly string[],
    at: number,
  ): Promise<void>;
  /**
   * Of `paths`, those this session wrote after it last read them (or never read), sorted. A recorded
   * path ending in `/` is a tree: it counts as a write of every path below it.
   */
  writtenSinceRead(session: string, paths: readonly string[]): Promise<string[]>;
  /**
   * Of `paths`, those this session wrote at any time, reads or not, sorted (trees as for
   * writtenSinceRead; a path asked as `DIR/` is written when DIR or anything below it was).
   */
  writtenBySession(session: string, paths: readonly string[]): Promise<string[]>;
  /**
   * What this session wrote (files, and trees as `DIR/`) at or below any of `dirs` (absolute; `/` is
   * everything), newest write first, at most `limit`: the session's code a test runner may load.
   */
  writtenUnder(session: string, dirs: readonly string[], limit: number): Promise<WrittenFile[]>;
  /** When the session's first audit row was written (epoch ms), or undefined for a session with none yet. */
  sessionStartedAt(session: string): Promise<number | undefined>;

  // --- The session's ledger newest first, for preconditions (preconditions.ts): bounded by count and
  // age, so a check never walks a whole session. ---
  /**
   * Windows over this session's ledger, answered in the order asked: `observed` — its observations
   * (reads, results, directives); `dispatched` — its dispatched decisions (outcome pass or dispatch,
   * not a dry look), each the call it let through. Each window holds the events at or after `since`,
   * newest first, at most `limit`. One check's preconditions read all theirs in one call (SQLite: in
   * one read transaction, so they see one consistent ledger).
   */
  ledgerWindows(session: string, requests: readonly LedgerRequest[]): Promise<LedgerWindows>;

  // --- Session caps (limits.session_* in the config, checked by core: limits.ts). A session's ledger
  // usage is counted as it grows, in the transaction that grows it, so instances sharing a store
  // cannot together pass a cap. ---
  /**
   * Appends an observation iff the session's ledger stays within `caps` with it (how many
   * observations, how many excerpt bytes), counting it in the same transaction; otherwise writes
   * nothing and returns the session's usage and which cap refused it.
   */
  insertObservationWithin(observation: Observation, caps: LedgerCaps): Promise<LedgerAdmission>;
  /** Predictions and declines filed in this session and not yet used (their sum). */
  countOpenTickets(session: string): Promise<number>;

  // --- Reviews (review.ts): a call waiting for a person's answer. Filed once, answered at most once
  // (a conditional update), an approval used up by commitDecision({kind: 'review'}). ---
  insertReview(record: ReviewRecord): Promise<void>;
  getReview(id: string): Promise<ReviewRecord | undefined>;
  /** Newest first. */
  listReviews(query: ReviewQuery): Promise<ReviewRecord[]>;
  /** The newest request for this call in this session, whatever its status. */
  latestReview(session: string, callDigest: string): Promise<ReviewRecord | undefined>;
  /**
   * Records the answer and appends its audit row in ONE transaction iff the request is still pending
   * and unexpired at `answer.at`; undefined (nothing written) otherwise.
   */
  answerReview(answer: ReviewAnswer, draft: AuditDraft): Promise<AuditRow | undefined>;

  // --- Review notices (review-notify.ts): an outbox, one row per request and webhook, drained by
  // whichever process gets there (a detached drainer the filing process starts, tollgate serve). ---
  /** Queues the request for each target, due at `at`; a (request, target) already queued is left alone. */
  enqueueNotifications(reviewId: string, targets: readonly string[], at: number): Promise<void>;
  /**
   * Takes up to `limit` deliveries due at `now` for one attempt: each is moved to `leaseUntil` by a
   * conditional update, so two drainers never attempt the same delivery at once.
   */
  claimNotifications(now: number, leaseUntil: number, limit: number): Promise<NotificationRecord[]>;
  /** Records one attempt: attempts + 1, its error or delivery time, and when it is due again. */
  recordNotification(attempt: NotificationAttempt): Promise<void>;
  /** When the next queued delivery is due, if any is. */
  nextNotificationAt(): Promise<number | undefined>;

  /** Throws when the store cannot serve. */
  health(): Promise<void>;
  close(): Promise<void>;
}
