// The Store port on one SQLite file (better-sqlite3, WAL). Hot paths run on prepared statements;
// writes that must be atomic across OS processes sharing the file run in BEGIN IMMEDIATE transactions.

import type { AuditRow, Decline, Observation, Prediction } from '@tollgate/contracts';
import {
  type AuditDraft,
  type AuditQuery,
  type ChainCheck,
  type ChainHead,
  type Consumption,
  chainRow,
  type DeclineRecord,
  type ExportQuery,
  GENESIS_HASH,
  type LedgerAdmission,
  type LedgerCaps,
  type LedgerRequest,
  type LedgerWindows,
  type NotificationAttempt,
  type NotificationRecord,
  type OpenTicket,
  type OverrideRecord,
  type PredictionRecord,
  type ReportQuery,
  type ReviewAnswer,
  type ReviewQuery,
  type ReviewRecord,
  type RuleHistory,
  type Store,
  type StoreReport,
  type TicketRecord,
  type WrittenFile,
} from '@tollgate/core';
import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { auditFacts, factsValues, ruleKind, uniqueRules } from './audit-facts.js';
import { type AuditHead, type StoredAudit, verifyStored } from './audit-verify.js';
import { StoreFault, toStoreFault } from './fault.js';
import * as HOST_POSTS from './host-posts.js';
import * as NOTIFY from './notify-sql.js';
import * as REVIEWS from './review-sql.js';
import { auditRow, observationRow, overrideRecord, overrideRow, ticketRecord, ticketRow } from './rows.js';
import { ruleHistoryOf, SQLITE_RULE_HISTORY } from './rule-history.js';
import type { Database, ObservationTable, OverrideTable, TicketTable } from './schema.js';
import * as FILES from './session-files.js';
import * as USAGE from './session-usage.js';
import { SqliteLedger } from './sqlite-ledger.js';
import { DEFAULT_SQLITE_PATH, openSqlite, type SqliteConnection, type SqliteOptions } from './sqlite-open.js';
import { prepareStatements, type SqliteStatements } from './sqlite-statements.js';

type TicketStatements = SqliteStatements['predictions'];

export class SqliteStore implements Store {
  readonly path: string;
  readonly #conn: SqliteConnection;
  readonly #s: SqliteStatements;
  readonly #append: (drafts: AuditDraft[]) => AuditRow[];
  readonly #commit: (consumption: Consumption, at: number, draft: AuditDraft) => AuditRow | undefined;
  /** The session-usage statements (session-usage.ts), prepared on first use. */
  #usage?: {
    within: (row: ObservationTable, bytes: number, caps: LedgerCaps) => LedgerAdmission;
    openTickets: BetterSqlite3.Statement;
  };
  /**
   * Preconditions' ledger windows, with the cache this store's own writes keep true (sqlite-ledger.ts):
   * every write to `observations` or `audit` on this connection must tell it (inserted / appended),
   * since data_version only counts other connections' commits.
   */
  readonly #ledger: SqliteLedger;
  #closed = false;

  private constructor(conn: SqliteConnection) {
    this.path = conn.path;
    this.#conn = conn;
    this.#s = prepareStatements(conn.raw);
    this.#ledger = new SqliteLedger(conn.raw);
    // .immediate: take the write lock before reading the chain head, so two processes never chain
    // onto the same head (a deferred transaction could read, then lose the race to upgrade).
    const tx = conn.raw.transaction((drafts: AuditDraft[]) => this.#chain(drafts));
    this.#append = (drafts) => tx.immediate(drafts);
    const commit = conn.raw.transaction((consumption: Consumption, at: number, draft: AuditDraft) => {
      if (consumption.kind === 'review') {
        const used = conn.raw.prepare(REVIEWS.SQLITE.consume).run(at, consumption.id, at).changes === 1;
        return used ? this.#chain([draft])[0] : undefined;
      }
      const s = consumption.kind === 'prediction' ? this.#s.predictions : this.#s.declines;
      const won =
        'id' in consumption
          ? s.consume.run(at, consumption.id).changes === 1
          : s.insertConsumed.run({ ...ticketRow(consumption.insert), consumed_at: at }).changes === 1;
      return won ? this.#chain([draft])[0] : undefined;
    });
    this.#commit = (consumption, at, draft) => commit.immediate(consumption, at, draft);
  }

  static async open(path: string = DEFAULT_SQLITE_PATH, options: SqliteOptions = {}): Promise<SqliteStore> {
    const conn = await openSqlite(path, options);
    try {
      return new SqliteStore(conn);
    } catch (error) {
      await conn.close();
      throw toStoreFault(error, `cannot prepare SQLite store at ${conn.path}`);
    }
  }

  /** The kysely handle, for read-only reports beyond the port (loaded on first use). */
  kysely(): Promise<Kysely<Database>> {
    return this.#conn.kysely();
  }

  async insertObservation(observation: Observation): Promise<void> {
    const row = observationRow(observation);
    run('insert observation', () => this.#s.insertObservation.run(row));
    this.#ledger.inserted(row);
  }

  async getObservation(session: string, id: string): Promise<Observation | undefined> {
    const doc = run('get observation', () => this.#s.getObservation.get(session, id)) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as Observation);
  }

  async findObservationsBySource(session: string, sourceKey: string, limit: number): Promise<Observation[]> {
    const docs = run('find observations', () => this.#s.observationsBySource.all(session, sourceKey, limit));
    return (docs as string[]).map((d) => JSON.parse(d) as Observation);
  }

  async insertPrediction(record: PredictionRecord): Promise<boolean> {
    return run('insert prediction', () => this.#s.predictions.insert.run(ticketRow(record))).changes === 1;
  }

  async insertDecline(record: DeclineRecord): Promise<boolean> {
    return run('insert decline', () => this.#s.declines.insert.run(ticketRow(record))).changes === 1;
  }

  async findOpenPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined> {
    return findTicket<Prediction>(this.#s.predictions.findOpen, session, callDigest);
  }

  async findOpenDecline(session: string, callDigest: string): Promise<DeclineRecord | undefined> {
    return findTicket<Decline>(this.#s.declines.findOpen, session, callDigest);
  }

  async openTickets(session: string, limit: number): Promise<OpenTicket[]> {
    const rows = run('open tickets', () => this.#s.openTickets.all(session, session, limit)) as Array<
      TicketTable & { kind: OpenTicket['kind'] }
    >;
    return rows.map((row) => ({ kind: row.kind, ...ticketRecord(row) }) as OpenTicket);
  }

  async lastConsumedAt(session: string, callDigest: string): Promise<number | undefined> {
    const at = run('last consumed', () => this.#s.lastConsumedAt.get(session, callDigest)) as
      | number
      | bigint
      | null;
    return at === null || at === undefined ? undefined : Number(at);
  }

  async findLatestPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined> {
    return findTicket<Prediction>(this.#s.predictions.findLatest, session, callDigest);
  }

  async consumePrediction(id: string, at: number): Promise<boolean> {
    return consume(this.#s.predictions, id, at);
  }

  async consumeDecline(id: string, at: number): Promise<boolean> {
    return consume(this.#s.declines, id, at);
  }

  async insertConsumedPrediction(record: PredictionRecord): Promise<boolean> {
    return insertConsumed(this.#s.predictions, record);
  }

  async insertConsumedDecline(record: DeclineRecord): Promise<boolean> {
    return insertConsumed(this.#s.declines, record);
  }

  async commitDecision(
    consumption: Consumption,
    at: number,
    draft: AuditDraft,
  ): Promise<AuditRow | undefined> {
    return run('commit decision', () => this.#commit(consumption, at, draft));
  }

  async appendAudit(drafts: AuditDraft[]): Promise<AuditRow[]> {
    if (drafts.length === 0) return [];
    return run('append audit', () => this.#append(drafts));
  }

  readonly #verify = (): ChainCheck =>
    this.#conn.raw.transaction(() => {
      const head = this.#s.auditHead.get() as AuditHead | undefined;
      return verifyStored(this.#s.auditInOrder.iterate() as Iterable<StoredAudit>, head);
    })();

  #chain(drafts: AuditDraft[]): AuditRow[] {
    const head = this.#s.auditHead.get() as { seq: number; hash: string } | undefined;
    let seq = head?.seq ?? 0;
    let prev = head?.hash ?? GENESIS_HASH;
    const rows: AuditRow[] = [];
    for (const draft of drafts) {
      const row = chainRow(draft, ++seq, prev);
      const stored = auditRow(row);
      this.#s.insertAudit.run(stored);
      this.#facts(row, stored.at_ms);
      prev = row.hash;
      rows.push(row);
    }
    this.#s.setAuditHead.run(seq, prev);
    return rows;
  }

  /** The row's report columns, rules and day rollups (audit-facts.ts, audit-rollup.ts), inside the append's transaction. */
  #facts(row: AuditRow, atMs: number | null): void {
    const facts = auditFacts(row, atMs);
    this.#s.insertFacts.run(factsValues(row, facts));
    this.#ledger.appended(facts);
    const kind = ruleKind(row);
    if (kind !== undefined) {
      const rules = uniqueRules(row);
      if (rules.length > 0) this.#s.insertRules.run(row.seq, kind, facts.at_ms, JSON.stringify(rules));
    } else if (row.kind === 'outcome' && row.ref !== undefined) {
      this.#s.copyOutcomeRules.run(row.seq, facts.at_ms, row.ref);
    }
    if (row.kind === 'decision' || row.kind === 'outcome') this.#s.upsertRollup.run(row.seq, row.seq);
  }

  // Listing, reports and export go through kysely, loaded (with these modules) only when asked for:
  // a hook process that checks one call never pays for it.
  async getAudit(id: string): Promise<AuditRow | undefined> {
    return guard(
      'get audit',
      this.#conn.kysely().then(async (db) => (await import('./audit-list.js')).getAudit(db, id)),
    );
  }

  async listAudit(query: AuditQuery): Promise<AuditRow[]> {
    return guard(
      'list audit',
      this.#conn.kysely().then(async (db) => (await import('./audit-list.js')).listAudit(db, query)),
    );
  }

  async report(query: ReportQuery): Promise<StoreReport> {
    return guard(
      'report',
      this.#conn.kysely().then(async (db) => (await import('./report-sql.js')).reportQuery(db, query)),
    );
  }

  /** Prepared statements, not kysely: the rails of every refusal ask for it. */
  async ruleHistory(rule: string, since: number, limit: number, agent?: string): Promise<RuleHistory> {
    return run('rule history', () => {
      const params = { rule, since, agent: agent ?? null, limit: Math.max(0, Math.floor(limit)) };
      const fires = this.#conn.raw.prepare(SQLITE_RULE_HISTORY.fires).get(params) as {
        n: number;
        scanned: number;
      };
      const docs = this.#conn.raw.prepare(SQLITE_RULE_HISTORY.mismatched).pluck().all(params) as string[];
      return ruleHistoryOf(
        rule,
        { n: Number(fires.n), scanned: Number(fires.scanned) },
        docs.map((d) => JSON.parse(d) as AuditRow),
        limit,
      );
    });
  }

  async *exportAudit(query: ExportQuery): AsyncGenerator<string[]> {
    try {
      const { exportPages } = await import('./audit-list.js');
      yield* exportPages(await this.#conn.kysely(), query);
    } catch (error) {
      throw toStoreFault(error, 'export audit');
    }
  }

  async verifyAudit(): Promise<ChainCheck> {
    // One read transaction: the head and the rows from one snapshot, the rows one at a time.
    return run('verify audit', () => this.#verify());
  }

  async storeId(): Promise<string> {
    const id = run('read store id', () => this.#s.storeId.get()) as string | undefined;
    if (id === undefined) throw new StoreFault('store_corrupt', `${this.path} has no store id`);
    return id;
  }

  async auditHead(): Promise<ChainHead> {
    const head = run('read chain head', () => this.#s.chainHead.get()) as ChainHead | undefined;
    if (head === undefined) throw new StoreFault('store_corrupt', 'the audit chain head row is missing');
    return head;
  }

  async recentDecisions(session: string, callDigest: string, limit: number): Promise<AuditRow[]> {
    const docs = run('find recent decisions', () =>
      this.#s.recentDecisions.all(callDigest, session, limit),
    ) as string[];
    return docs.map((d) => JSON.parse(d) as AuditRow);
  }

  async claimHostPost(session: string, hostRef: string, at: number): Promise<boolean> {
    const raw = this.#conn.raw;
    return run(
      'claim host post',
      () => raw.prepare(HOST_POSTS.SQLITE.claim).run(session, hostRef, at).changes === 1,
    );
  }

  async getAuditBySeq(seq: number): Promise<AuditRow | undefined> {
    const doc = run('get audit by seq', () => this.#s.auditBySeq.get(seq)) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as AuditRow);
  }

  async getRejections(session: string, callDigest: string): Promise<number> {
    const count = run('get rejections', () => this.#s.getRejections.get(session, callDigest)) as
      | number
      | undefined;
    return count ?? 0;
  }

  async bumpRejections(session: string, callDigest: string): Promise<number> {
    return run('bump rejections', () => this.#s.bumpRejections.get(session, callDigest)) as number;
  }

  async resetRejections(session: string, callDigest: string): Promise<void> {
    run('reset rejections', () => this.#s.resetRejections.run(session, callDigest));
  }

  async insertOverride(record: OverrideRecord): Promise<void> {
    run('insert override', () => this.#s.insertOverride.run(overrideRow(record)));
  }

  async findOverrides(
    session: string,
    rules: readonly string[],
    callDigest: string,
    now: number,
  ): Promise<OverrideRecord[]> {
    const params = { session, rules: JSON.stringify(rules), call_digest: callDigest, now };
    const rows = run('find overrides', () => this.#s.findOverrides.all(params)) as OverrideTable[];
    return rows.map(overrideRecord);
  }

  async insertObservationWithin(observation: Observation, caps: LedgerCaps): Promise<LedgerAdmission> {
    const row = observationRow(observation);
    const bytes = Buffer.byteLength(observation.excerpt);
    const admission = run('insert observation', () => this.#usageStatements().within(row, bytes, caps));
    if (admission.ok) this.#ledger.inserted(row);
    return admission;
  }

  async countOpenTickets(session: string): Promise<number> {
    return Number(run('count open tickets', () => this.#usageStatements().openTickets.get(session, session)));
  }

  #usageStatements() {
    if (this.#usage) return this.#usage;
    const raw = this.#conn.raw;
    const usage = raw.prepare(USAGE.SQLITE.usage);
    const count = raw.prepare(USAGE.SQLITE.count);
    // IMMEDIATE: the usage read and the append happen under one write lock, so two processes never
    // both pass the last free place.
    const within = raw.transaction(
      (row: ObservationTable, bytes: number, caps: LedgerCaps): LedgerAdmission => {
        const now = USAGE.usageOf(usage.get(row.session) as USAGE.UsageRow | undefined);
        const cap = USAGE.capPassed(now, bytes, caps);
        if (cap !== undefined) return { ok: false, usage: now, cap };
        this.#s.insertObservation.run(row);
        count.run(row.session, bytes);
        return {
          ok: true,
          usage: { observations: now.observations + 1, excerptBytes: now.excerptBytes + bytes },
        };
      },
    );
    this.#usage = {
      within: (row, bytes, caps) => within.immediate(row, bytes, caps),
      openTickets: raw.prepare(USAGE.SQLITE.openTickets).pluck(),
    };
    return this.#usage;
  }

  async insertReview(record: ReviewRecord): Promise<void> {
    run('insert review', () =>
      this.#conn.raw.prepare(REVIEWS.SQLITE.insert).run(...REVIEWS.reviewValues(record)),
    );
  }

  async getReview(id: string): Promise<ReviewRecord | undefined> {
    const row = run('get review', () => this.#conn.raw.prepare(REVIEWS.SQLITE.get).get(id)) as
      | REVIEWS.ReviewRow
      | undefined;
    return row === undefined ? undefined : this.#withNotifications([REVIEWS.reviewRecord(row)])[0];
  }

  #withNotifications(reviews: ReviewRecord[]): ReviewRecord[] {
    if (reviews.length === 0) return reviews;
    const stmt = this.#conn.raw.prepare(NOTIFY.SQLITE.forReview);
    const rows = run('list notifications', () =>
      reviews.flatMap((r) => stmt.all(r.id) as NOTIFY.NotificationRow[]),
    );
    return NOTIFY.withNotifications(reviews, rows);
  }

  async enqueueNotifications(reviewId: string, targets: readonly string[], at: number): Promise<void> {
    const raw = this.#conn.raw;
    const stmt = raw.prepare(NOTIFY.SQLITE.enqueue);
    const tx = raw.transaction(() => {
      for (const t of targets.slice(0, NOTIFY.MAX_TARGETS)) stmt.run(reviewId, t, at);
    });
    run('enqueue notifications', () => tx.immediate());
  }

  async claimNotifications(now: number, leaseUntil: number, limit: number): Promise<NotificationRecord[]> {
    const raw = this.#conn.raw;
    const tx = raw.transaction(() => {
      const due = raw.prepare(NOTIFY.SQLITE.due).all(now, limit) as NOTIFY.NotificationRow[];
      const claim = raw.prepare(NOTIFY.SQLITE.claim);
      return due
        .filter((d) => claim.run(leaseUntil, d.review_id, d.target, d.next_ms).changes === 1)
        .map((d) => NOTIFY.notificationRecord({ ...d, next_ms: leaseUntil }));
    });
    return run('claim notifications', () => tx.immediate());
  }

  async recordNotification(attempt: NotificationAttempt): Promise<void> {
    run('record notification', () =>
      this.#conn.raw.prepare(NOTIFY.SQLITE.record).run(...NOTIFY.attemptValues(attempt)),
    );
  }

  async nextNotificationAt(): Promise<number | undefined> {
    const row = run('next notification', () => this.#conn.raw.prepare(NOTIFY.SQLITE.next).get()) as
      | { next: number | null }
      | undefined;
    return row?.next === null || row?.next === undefined ? undefined : Number(row.next);
  }

  async latestReview(session: string, callDigest: string): Promise<ReviewRecord | undefined> {
    const row = run('latest review', () =>
      this.#conn.raw.prepare(REVIEWS.SQLITE.latest).get(session, callDigest),
    ) as REVIEWS.ReviewRow | undefined;
    return row === undefined ? undefined : REVIEWS.reviewRecord(row);
  }

  async listReviews(query: ReviewQuery): Promise<ReviewRecord[]> {
    const rows = run('list reviews', () =>
      this.#conn.raw.prepare(REVIEWS.SQLITE.list).all(...REVIEWS.listParams(query, 'sqlite')),
    ) as REVIEWS.ReviewRow[];
    return this.#withNotifications(rows.map(REVIEWS.reviewRecord));
  }

  async answerReview(answer: ReviewAnswer, draft: AuditDraft): Promise<AuditRow | undefined> {
    const raw = this.#conn.raw;
    const tx = raw.transaction(() => {
      const values = REVIEWS.answerValues(answer);
      if (raw.prepare(REVIEWS.SQLITE.answer).run(...values).changes !== 1) return undefined;
      return this.#chain([draft])[0];
    });
    return run('answer review', () => tx.immediate());
  }

  async recordFileEvents(
    session: string,
    kind: 'write' | 'read' | 'pending',
    paths: readonly string[],
    at: number,
  ): Promise<void> {
    const list = paths.slice(0, FILES.MAX_PATHS);
    if (list.length === 0) return;
    const raw = this.#conn.raw;
    const when = kind === 'pending' ? FILES.PENDING_MS : at;
    run('record file events', () =>
      raw.transaction(() => {
        const stmt = raw.prepare(kind === 'read' ? FILES.SQLITE.read : FILES.SQLITE.write);
        for (const path of list) stmt.run(session, path, when);
      })(),
    );
  }

  async writtenSinceRead(session: string, paths: readonly string[]): Promise<string[]> {
    return this.#askedPaths('files written since read', FILES.SQLITE.unread, session, paths);
  }

  async writtenBySession(session: string, paths: readonly string[]): Promise<string[]> {
    return this.#askedPaths('files written by the session', FILES.SQLITE.written, session, paths);
  }

  async writtenUnder(session: string, dirs: readonly string[], limit: number): Promise<WrittenFile[]> {
    if (dirs.length === 0 || limit <= 0) return [];
    const list = JSON.stringify(FILES.dirPrefixes(dirs));
    const rows = run('files written under', () =>
      this.#conn.raw.prepare(FILES.SQLITE.under).all({ session, list, limit, pending: FILES.PENDING_MS }),
    ) as { path: string; pending: number }[];
    return rows.map((row) => ({ path: row.path, pending: row.pending === 1 }));
  }

  async sessionStartedAt(session: string): Promise<number | undefined> {
    const at = run('session start', () => this.#conn.raw.prepare(FILES.SQLITE.started).pluck().get(session));
    return at === undefined || at === null ? undefined : Number(at);
  }

  /** Of `paths` (at most MAX_PATHS), those the session-files query `sql` returns. */
  #askedPaths(label: string, sql: string, session: string, paths: readonly string[]): string[] {
    if (paths.length === 0) return [];
    const list = JSON.stringify(paths.slice(0, FILES.MAX_PATHS));
    return run(label, () => this.#conn.raw.prepare(sql).pluck().all({ session, list })) as string[];
  }

  async ledgerWindows(session: string, requests: readonly LedgerRequest[]): Promise<LedgerWindows> {
    return run('read ledger windows', () => this.#ledger.windows(session, requests));
  }

  async health(): Promise<void> {
    if (this.#closed) throw new StoreFault('store_unavailable', 'the store is closed');
    run('health', () => this.#conn.raw.prepare('SELECT 1').get());
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#conn.close();
  }
}

function findTicket<T>(
  stmt: TicketStatements['findOpen'],
  session: string,
  callDigest: string,
): TicketRecord<T> | undefined {
  const row = run('find ticket', () => stmt.get(session, callDigest)) as TicketTable | undefined;
  return row === undefined ? undefined : ticketRecord<T>(row);
}

function consume(s: TicketStatements, id: string, at: number): boolean {
  return run('consume ticket', () => s.consume.run(at, id)).changes === 1;
}

function insertConsumed<T>(s: TicketStatements, record: TicketRecord<T>): boolean {
  const row = ticketRow(record);
  row.consumed_at ??= record.created_at;
  return run('insert consumed ticket', () => s.insertConsumed.run(row)).changes === 1;
}

function run<T>(doing: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toStoreFault(error, doing);
  }
}

async function guard<T>(doing: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw toStoreFault(error, doing);
  }
}
