// The Store port on PostgreSQL, for several gate instances sharing one database: single use is a
// conditional UPDATE, and audit appends take turns on a row lock held by the database, never by
// process memory. Hot paths are named statements on the pg pool; the rest goes through kysely.

import type { AuditRow, Decline, Observation, Prediction } from '@tollgate/contracts';
import {
  type AuditDraft,
  type AuditQuery,
  type ChainCheck,
  type ChainHead,
  type Consumption,
  chainRow,
  type DeclineRecord,
  type DispatchRecord,
  type ExportQuery,
  GENESIS_HASH,
  type LedgerAdmission,
  type LedgerCaps,
  type LedgerRequest,
  type LedgerWindow,
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
import type { Kysely } from 'kysely';
import type pg from 'pg';
import { auditFacts, factsValues, ruleKind, uniqueRules } from './audit-facts.js';
import { exportPages, getAudit, listAudit } from './audit-list.js';
import { StoredChainWalker } from './audit-verify.js';
import { StoreFault, toStoreFault } from './fault.js';
import * as HOST_POSTS from './host-posts.js';
import * as LEDGER from './ledger-window.js';
import * as NOTIFY from './notify-sql.js';
import { openPostgres, type PostgresConnection, type PostgresOptions } from './pg-open.js';
import { q, type TicketQueries } from './pg-queries.js';
import { reportQuery, ruleHistoryQuery } from './report-sql.js';
import * as REVIEWS from './review-sql.js';
import { auditRow, observationRow, overrideRecord, ticketRecord, ticketRow } from './rows.js';
import type { Database, OverrideTable, TicketTable } from './schema.js';
import * as FILES from './session-files.js';
import * as USAGE from './session-usage.js';

const VERIFY_PAGE = 5000;

export class PostgresStore implements Store {
  readonly #pool: pg.Pool;
  readonly #db: Kysely<Database>;
  #closed = false;

  private constructor(conn: PostgresConnection) {
    this.#pool = conn.pool;
    this.#db = conn.db;
  }

  static async open(url: string, options: PostgresOptions = {}): Promise<PostgresStore> {
    return new PostgresStore(await openPostgres(url, options));
  }

  /** The kysely handle, for read-only reports beyond the port. */
  get kysely(): Kysely<Database> {
    return this.#db;
  }

  async insertObservation(o: Observation): Promise<void> {
    const r = observationRow(o);
    await this.#query('insert observation', q.insertObservation, [
      r.session,
      r.id,
      r.source_key,
      r.observed_ms,
      r.doc,
    ]);
  }

  async getObservation(session: string, id: string): Promise<Observation | undefined> {
    const { rows } = await this.#query<{ doc: string }>('get observation', q.getObservation, [session, id]);
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].doc) as Observation);
  }

  async findObservationsBySource(session: string, sourceKey: string, limit: number): Promise<Observation[]> {
    const { rows } = await this.#query<{ doc: string }>('find observations', q.observationsBySource, [
      session,
      sourceKey,
      limit,
    ]);
    return rows.map((r) => JSON.parse(r.doc) as Observation);
  }

  async insertPrediction(record: PredictionRecord): Promise<boolean> {
    return (
      (await this.#query('insert prediction', q.predictions.insert, ticketValues(record))).rowCount === 1
    );
  }

  async insertDecline(record: DeclineRecord): Promise<boolean> {
    return (await this.#query('insert decline', q.declines.insert, ticketValues(record))).rowCount === 1;
  }

  async findOpenPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined> {
    return this.#findTicket<Prediction>(q.predictions.findOpen, session, callDigest);
  }

  async findOpenDecline(session: string, callDigest: string): Promise<DeclineRecord | undefined> {
    return this.#findTicket<Decline>(q.declines.findOpen, session, callDigest);
  }

  async openTickets(session: string, limit: number): Promise<OpenTicket[]> {
    const { rows } = await this.#query<TicketTable & { kind: OpenTicket['kind'] }>(
      'open tickets',
      q.openTickets,
      [session, limit],
    );
    return rows.map((row) => ({ kind: row.kind, ...ticketRecord(row) }) as OpenTicket);
  }

  async lastConsumedAt(session: string, callDigest: string): Promise<number | undefined> {
    const { rows } = await this.#query<{ at: string | number | null }>('last consumed', q.lastConsumedAt, [
      session,
      callDigest,
    ]);
    const at = rows[0]?.at;
    return at === null || at === undefined ? undefined : Number(at);
  }

  async findLatestPrediction(session: string, callDigest: string): Promise<PredictionRecord | undefined> {
    return this.#findTicket<Prediction>(q.predictions.findLatest, session, callDigest);
  }

  async consumePrediction(id: string, at: number): Promise<boolean> {
    return this.#consume(q.predictions, id, at);
  }

  async consumeDecline(id: string, at: number): Promise<boolean> {
    return this.#consume(q.declines, id, at);
  }

  async insertConsumedPrediction(record: PredictionRecord): Promise<boolean> {
    return this.#insertConsumed(q.predictions, record);
  }

  async insertConsumedDecline(record: DeclineRecord): Promise<boolean> {
    return this.#insertConsumed(q.declines, record);
  }

  async appendAudit(drafts: AuditDraft[]): Promise<AuditRow[]> {
    if (drafts.length === 0) return [];
    return this.#transaction('append audit', (client) => this.#chainOn(client, drafts));
  }

  async commitDecision(
    consumption: Consumption,
    at: number,
    draft: AuditDraft,
  ): Promise<AuditRow | undefined> {
    return this.#transaction('commit decision', async (client) => {
      if (consumption.kind === 'review') {
        const used = await client.query({ ...REVIEWS.PG.consume, values: [at, consumption.id] });
        return used.rowCount === 1 ? (await this.#chainOn(client, [draft]))[0] : undefined;
      }
      const t = consumption.kind === 'prediction' ? q.predictions : q.declines;
      const result =
        'id' in consumption
          ? await client.query({ ...t.consume, values: [consumption.id, at] })
          : await client.query({ ...t.insertConsumed, values: consumedValues(consumption.insert, at) });
      if (result.rowCount !== 1) return undefined;
      return (await this.#chainOn(client, [draft]))[0];
    });
  }

  /** Inside a transaction: takes the chain lock, reads the head, inserts the rows chained onto it. */
  async #chainOn(client: pg.PoolClient, drafts: AuditDraft[]): Promise<AuditRow[]> {
    const { rows: heads } = await client.query<{ seq: number | string; hash: string }>(q.auditLockAndHead);
    const head = heads[0];
    if (head === undefined) throw new StoreFault('store_corrupt', 'the audit chain head row is missing');
    let seq = Number(head.seq);
    let prev = head?.hash ?? GENESIS_HASH;
    const rows: AuditRow[] = [];
    for (const draft of drafts) {
      const row = chainRow(draft, ++seq, prev);
      const r = auditRow(row);
      const values = [
        r.seq,
        r.id,
        r.session,
        r.agent,
        r.kind,
        r.ref,
        r.at,
        r.at_ms,
        r.call_digest,
        r.hash,
        r.doc,
      ];
      await client.query({ ...q.insertAudit, values });
      await this.#facts(client, row, r.at_ms);
      prev = row.hash;
      rows.push(row);
    }
    await client.query({ ...q.setAuditHead, values: [seq, prev] });
    return rows;
  }

  /** The row's report columns, rules and day rollups (audit-facts.ts, audit-rollup.ts), inside the append's transaction. */
  async #facts(client: pg.PoolClient, row: AuditRow, atMs: number | null): Promise<void> {
    const facts = auditFacts(row, atMs);
    await client.query({ ...q.insertFacts, values: factsValues(row, facts) });
    const kind = ruleKind(row);
    if (kind !== undefined) {
      const rules = uniqueRules(row);
      if (rules.length > 0)
        await client.query({ ...q.insertRules, values: [row.seq, kind, facts.at_ms, rules] });
    } else if (row.kind === 'outcome' && row.ref !== undefined) {
      await client.query({ ...q.copyOutcomeRules, values: [row.seq, facts.at_ms, row.ref] });
    }
    if (row.kind === 'decision' || row.kind === 'outcome')
      await client.query({ ...q.upsertRollup, values: [row.seq, row.seq] });
  }

  /** BEGIN … COMMIT on one pooled client; any error rolls back and leaves as a StoreFault. */
  async #transaction<T>(doing: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#connect(doing);
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query(result === undefined ? 'ROLLBACK' : 'COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((e: Error) => {
        broken = e;
      });
      throw toStoreFault(error, doing);
    } finally {
      client.release(broken);
    }
  }

  async getAudit(id: string): Promise<AuditRow | undefined> {
    return this.#guard('get audit', () => getAudit(this.#db, id));
  }

  async listAudit(query: AuditQuery): Promise<AuditRow[]> {
    return this.#guard('list audit', () => listAudit(this.#db, query));
  }

  async report(query: ReportQuery): Promise<StoreReport> {
    return this.#guard('report', () => reportQuery(this.#db, query));
  }

  async ruleHistory(rule: string, since: number, limit: number, agent?: string): Promise<RuleHistory> {
    return this.#guard('rule history', () => ruleHistoryQuery(this.#db, rule, since, limit, agent));
  }

  async *exportAudit(query: ExportQuery): AsyncGenerator<string[]> {
    try {
      yield* exportPages(this.#db, query);
    } catch (error) {
      throw toStoreFault(error, 'export audit');
    }
  }

  async verifyAudit(): Promise<ChainCheck> {
    // Pages in one REPEATABLE READ transaction (one snapshot of the chain), each walked as it
    // arrives, so memory stays one page whatever the size of the audit.
    return this.#guard('verify audit', () =>
      this.#db
        .transaction()
        .setIsolationLevel('repeatable read')
        .execute(async (trx) => {
          const head = await trx
            .selectFrom('audit_head')
            .select(['seq', 'hash'])
            .where('id', '=', 1)
            .executeTakeFirst();
          const walker = new StoredChainWalker();
          for (let after = -1; ; ) {
            const page = await trx
              .selectFrom('audit')
              .select(['seq', 'id', 'session', 'agent', 'kind', 'ref', 'at_ms', 'call_digest', 'hash', 'doc'])
              .where('seq', '>', after)
              .orderBy('seq')
              .limit(VERIFY_PAGE)
              .execute();
            for (const stored of page) {
              const broken = walker.push(stored);
              if (broken) return broken;
            }
            const last = page.at(-1);
            if (last === undefined || page.length < VERIFY_PAGE) return walker.done(head);
            after = last.seq;
          }
        }),
    );
  }

  async storeId(): Promise<string> {
    const { rows } = await this.#query<{ value: string }>('read store id', q.storeId, []);
    if (rows[0] === undefined) throw new StoreFault('store_corrupt', 'the store has no store id');
    return rows[0].value;
  }

  async auditHead(): Promise<ChainHead> {
    const { rows } = await this.#query<Record<keyof ChainHead, number | string>>(
      'read chain head',
      q.chainHead,
      [],
    );
    const head = rows[0];
    if (head === undefined) throw new StoreFault('store_corrupt', 'the audit chain head row is missing');
    // count(*) is int8 (parsed as a number); the rest as stored.
    return {
      seq: Number(head.seq),
      hash: String(head.hash),
      rows: Number(head.rows),
      newest_seq: Number(head.newest_seq),
    };
  }

  async recentDecisions(session: string, callDigest: string, limit: number): Promise<AuditRow[]> {
    const { rows } = await this.#query<{ doc: string }>('find recent decisions', q.recentDecisions, [
      callDigest,
      session,
      limit,
    ]);
    return rows.map((r) => JSON.parse(r.doc) as AuditRow);
  }

  async claimHostPost(session: string, hostRef: string, at: number): Promise<boolean> {
    const result = await this.#query('claim host post', HOST_POSTS.PG.claim, [session, hostRef, at]);
    return result.rowCount === 1;
  }

  async getAuditBySeq(seq: number): Promise<AuditRow | undefined> {
    const { rows } = await this.#query<{ doc: string }>('get audit by seq', q.auditBySeq, [seq]);
    return rows[0] === undefined ? undefined : (JSON.parse(rows[0].doc) as AuditRow);
  }

  async getRejections(session: string, callDigest: string): Promise<number> {
    const { rows } = await this.#query<{ count: number }>('get rejections', q.getRejections, [
      session,
      callDigest,
    ]);
    return rows[0]?.count ?? 0;
  }

  async bumpRejections(session: string, callDigest: string): Promise<number> {
    const { rows } = await this.#query<{ count: number }>('bump rejections', q.bumpRejections, [
      session,
      callDigest,
    ]);
    return rows[0]!.count;
  }

  async resetRejections(session: string, callDigest: string): Promise<void> {
    await this.#query('reset rejections', q.resetRejections, [session, callDigest]);
  }

  async insertOverride(o: OverrideRecord): Promise<void> {
    const values = [o.id, o.operator, o.reason, o.session ?? null, o.rule ?? null, o.call_digest ?? null];
    await this.#query('insert override', q.insertOverride, [...values, o.created_at, o.expires_at]);
  }

  async findOverrides(
    session: string,
    rules: readonly string[],
    callDigest: string,
    now: number,
  ): Promise<OverrideRecord[]> {
    const { rows } = await this.#query<OverrideTable>('find overrides', q.findOverrides, [
      session,
      rules,
      callDigest,
      now,
    ]);
    return rows.map(overrideRecord);
  }

  async insertObservationWithin(o: Observation, caps: LedgerCaps): Promise<LedgerAdmission> {
    const r = observationRow(o);
    const bytes = Buffer.byteLength(o.excerpt);
    // One statement counts and appends (session-usage.ts); a first read is checked here, since the
    // statement's insert of a new usage row has no WHERE to refuse it.
    const alone = USAGE.capPassed({ observations: 0, excerptBytes: 0 }, bytes, caps);
    if (alone === undefined) {
      const { rows } = await this.#query<USAGE.UsageRow>('insert observation', USAGE.PG.insertWithin, [
        r.session,
        r.id,
        r.source_key,
        r.observed_ms,
        r.doc,
        bytes,
        caps.observations,
        caps.excerptBytes,
      ]);
      if (rows[0] !== undefined) return { ok: true, usage: USAGE.usageOf(rows[0]) };
    }
    const { rows } = await this.#query<USAGE.UsageRow>('read session usage', USAGE.PG.usage, [r.session]);
    const usage = USAGE.usageOf(rows[0]);
    return { ok: false, usage, cap: USAGE.capPassed(usage, bytes, caps) ?? alone ?? 'observations' };
  }

  async countOpenTickets(session: string): Promise<number> {
    const { rows } = await this.#query<{ open: number }>('count open tickets', USAGE.PG.openTickets, [
      session,
    ]);
    return Number(rows[0]?.open ?? 0);
  }

  async insertReview(record: ReviewRecord): Promise<void> {
    await this.#query('insert review', REVIEWS.PG.insert, REVIEWS.reviewValues(record));
  }

  async getReview(id: string): Promise<ReviewRecord | undefined> {
    const { rows } = await this.#query<REVIEWS.ReviewRow>('get review', REVIEWS.PG.get, [id]);
    return rows[0] === undefined
      ? undefined
      : (await this.#withNotifications([REVIEWS.reviewRecord(rows[0])]))[0];
  }

  async latestReview(session: string, callDigest: string): Promise<ReviewRecord | undefined> {
    const { rows } = await this.#query<REVIEWS.ReviewRow>('latest review', REVIEWS.PG.latest, [
      session,
      callDigest,
    ]);
    return rows[0] === undefined ? undefined : REVIEWS.reviewRecord(rows[0]);
  }

  async listReviews(query: ReviewQuery): Promise<ReviewRecord[]> {
    const params = REVIEWS.listParams(query, 'postgres');
    const { rows } = await this.#query<REVIEWS.ReviewRow>('list reviews', REVIEWS.PG.list, params);
    return this.#withNotifications(rows.map(REVIEWS.reviewRecord));
  }

  async #withNotifications(reviews: ReviewRecord[]): Promise<ReviewRecord[]> {
    if (reviews.length === 0) return reviews;
    const ids = reviews.map((r) => r.id);
    const { rows } = await this.#query<NOTIFY.NotificationRow>('list notifications', NOTIFY.PG.forReviews, [
      ids,
    ]);
    return NOTIFY.withNotifications(reviews, rows);
  }

  async enqueueNotifications(reviewId: string, targets: readonly string[], at: number): Promise<void> {
    await this.#transaction('enqueue notifications', async (client) => {
      for (const t of targets.slice(0, NOTIFY.MAX_TARGETS))
        await client.query({ ...NOTIFY.PG.enqueue, values: [reviewId, t, at] });
      return true; // #transaction rolls back an undefined result
    });
  }

  async claimNotifications(now: number, leaseUntil: number, limit: number): Promise<NotificationRecord[]> {
    const { rows } = await this.#query<NOTIFY.NotificationRow>('due notifications', NOTIFY.PG.due, [
      now,
      limit,
    ]);
    const claimed: NotificationRecord[] = [];
    for (const d of rows) {
      const r = await this.#query('claim notification', NOTIFY.PG.claim, [
        leaseUntil,
        d.review_id,
        d.target,
        d.next_ms,
      ]);
      if (r.rowCount === 1) claimed.push(NOTIFY.notificationRecord({ ...d, next_ms: leaseUntil }));
    }
    return claimed;
  }

  async recordNotification(attempt: NotificationAttempt): Promise<void> {
    await this.#query('record notification', NOTIFY.PG.record, NOTIFY.attemptValues(attempt));
  }

  async nextNotificationAt(): Promise<number | undefined> {
    const { rows } = await this.#query<{ next: string | number | null }>(
      'next notification',
      NOTIFY.PG.next,
      [],
    );
    const next = rows[0]?.next;
    return next === null || next === undefined ? undefined : Number(next);
  }

  async answerReview(answer: ReviewAnswer, draft: AuditDraft): Promise<AuditRow | undefined> {
    return this.#transaction('answer review', async (client) => {
      const values = REVIEWS.answerValues(answer);
      const updated = await client.query({ ...REVIEWS.PG.answer, values });
      return updated.rowCount === 1 ? (await this.#chainOn(client, [draft]))[0] : undefined;
    });
  }

  async recordFileEvents(
    session: string,
    kind: 'write' | 'read' | 'pending',
    paths: readonly string[],
    at: number,
  ): Promise<void> {
    const list = paths.slice(0, FILES.MAX_PATHS);
    if (list.length === 0) return;
    await this.#query('record file events', kind === 'read' ? FILES.PG.read : FILES.PG.write, [
      session,
      list,
      kind === 'pending' ? FILES.PENDING_MS : at,
    ]);
  }

  async writtenSinceRead(session: string, paths: readonly string[]): Promise<string[]> {
    return this.#askedPaths('files written since read', FILES.PG.unread, session, paths);
  }

  async writtenBySession(session: string, paths: readonly string[]): Promise<string[]> {
    return this.#askedPaths('files written by the session', FILES.PG.written, session, paths);
  }

  async writtenUnder(session: string, dirs: readonly string[], limit: number): Promise<WrittenFile[]> {
    if (dirs.length === 0 || limit <= 0) return [];
    const { rows } = await this.#query<{ path: string; pending: boolean }>(
      'files written under',
      FILES.PG.under,
      [session, FILES.dirPrefixes(dirs), limit, FILES.PENDING_MS],
    );
    return rows.map((row) => ({ path: row.path, pending: row.pending === true }));
  }

  async sessionStartedAt(session: string): Promise<number | undefined> {
    const { rows } = await this.#query<{ at_ms: number | string | null }>('session start', FILES.PG.started, [
      session,
    ]);
    const at = rows[0]?.at_ms;
    return at === undefined || at === null ? undefined : Number(at);
  }

  /** Of `paths` (at most MAX_PATHS), those the session-files query returns. */
  async #askedPaths(
    label: string,
    query: (typeof FILES.PG)['unread'],
    session: string,
    paths: readonly string[],
  ): Promise<string[]> {
    if (paths.length === 0) return [];
    const { rows } = await this.#query<{ path: string }>(label, query, [
      session,
      paths.slice(0, FILES.MAX_PATHS),
    ]);
    return rows.map((r) => r.path);
  }

  async #observationsWindow(session: string, query: LedgerWindow): Promise<Observation[]> {
    const tools = LEDGER.toolFilter(query.tools, true);
    const limit = LEDGER.windowLimit(query.limit);
    const lists = await Promise.all(
      (tools ?? [undefined]).map(async (tool) => {
        const { rows } =
          tool === undefined
            ? await this.#query<{ doc: string }>('list recent observations', LEDGER.PG.observations, [
                session,
                query.since,
                limit,
              ])
            : await this.#query<{ doc: string }>('list recent observations', LEDGER.PG.observationsOf, [
                session,
                query.since,
                limit,
                tool,
              ]);
        return rows.map((r) => JSON.parse(r.doc) as Observation);
      }),
    );
    return LEDGER.mergeNewest(lists, limit, LEDGER.newerObservation);
  }

  async ledgerWindows(session: string, requests: readonly LedgerRequest[]): Promise<LedgerWindows> {
    // Concurrent on the pool: the windows of one check cost one round trip's wait, not one each.
    return Promise.all(
      requests.map((r) =>
        r.kind === 'observed'
          ? this.#observationsWindow(session, r.query)
          : this.#dispatchesWindow(session, r.query),
      ),
    );
  }

  async #dispatchesWindow(session: string, query: LedgerWindow): Promise<DispatchRecord[]> {
    const tools = LEDGER.toolFilter(query.tools, false);
    const limit = LEDGER.windowLimit(query.limit);
    const lists = await Promise.all(
      (tools ?? [undefined]).map(async (tool) => {
        const { rows } =
          tool === undefined
            ? await this.#query<LEDGER.DispatchRow>('list recent dispatches', LEDGER.PG.dispatches, [
                session,
                query.since,
                limit,
              ])
            : await this.#query<LEDGER.DispatchRow>('list recent dispatches', LEDGER.PG.dispatchesOf, [
                session,
                query.since,
                limit,
                tool,
              ]);
        return rows.flatMap((r) => LEDGER.dispatchRecord(r) ?? []);
      }),
    );
    return LEDGER.mergeNewest(lists, limit, LEDGER.newerDispatch);
  }

  async health(): Promise<void> {
    if (this.#closed) throw new StoreFault('store_unavailable', 'the store is closed');
    await this.#query('health', { name: 'tg_health', text: 'SELECT 1' }, []);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#db.destroy(); // ends the pool
  }

  async #findTicket<T>(
    query: TicketQueries['findOpen'],
    session: string,
    callDigest: string,
  ): Promise<TicketRecord<T> | undefined> {
    const { rows } = await this.#query<TicketTable>('find ticket', query, [session, callDigest]);
    return rows[0] === undefined ? undefined : ticketRecord<T>(rows[0]);
  }

  async #consume(t: TicketQueries, id: string, at: number): Promise<boolean> {
    return (await this.#query('consume ticket', t.consume, [id, at])).rowCount === 1;
  }

  async #insertConsumed<T>(t: TicketQueries, record: TicketRecord<T>): Promise<boolean> {
    const values = ticketValues(record);
    values[7] ??= record.created_at;
    return (await this.#query('insert consumed ticket', t.insertConsumed, values)).rowCount === 1;
  }

  async #query<R extends pg.QueryResultRow = pg.QueryResultRow>(
    doing: string,
    query: { name: string; text: string },
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      return await this.#pool.query<R>({ ...query, values });
    } catch (error) {
      throw toStoreFault(error, doing);
    }
  }

  async #connect(doing: string): Promise<pg.PoolClient> {
    try {
      return await this.#pool.connect();
    } catch (error) {
      throw toStoreFault(error, doing);
    }
  }

  async #guard<T>(doing: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw toStoreFault(error, doing);
    }
  }
}

function consumedValues<T>(record: TicketRecord<T>, at: number): unknown[] {
  const values = ticketValues(record);
  values[7] = at;
  return values;
}

function ticketValues<T>(record: TicketRecord<T>): unknown[] {
  const r = ticketRow(record);
  return [r.id, r.session, r.agent, r.call_digest, r.doc_digest, r.doc, r.created_at, r.consumed_at];
}
