// Store.ledgerWindows on SQLite: the session's ledger windows for preconditions, answered from the
// connection's LedgerCache while no other connection has committed since it was filled (PRAGMA
// data_version), else read in one read transaction whose first statement takes that version, so
// what is kept and what is read are one snapshot. The store tells it of its own writes.
import type { Observation } from '@tollgate/contracts';
import type { DispatchRecord, LedgerRequest, LedgerWindows } from '@tollgate/core';
import type BetterSqlite3 from 'better-sqlite3';
import { type InsertedObservation, LedgerCache, type LedgerCacheLimits } from './ledger-cache.js';
import * as LEDGER from './ledger-window.js';

interface Statements {
  version: BetterSqlite3.Statement;
  observations: BetterSqlite3.Statement;
  observationsOf: BetterSqlite3.Statement;
  dispatches: BetterSqlite3.Statement;
  dispatchesOf: BetterSqlite3.Statement;
  toolOfKey: BetterSqlite3.Statement;
}

/** The report columns of an appended audit row that decide whether dispatch windows count it. */
export interface AppendedFacts {
  kind: string;
  session: string;
  tool: string | null;
  outcome: string | null;
  dry_run: number;
}

export class SqliteLedger {
  #s: Statements | undefined;
  readonly #cache: LedgerCache;

  constructor(
    private readonly raw: BetterSqlite3.Database,
    limits?: LedgerCacheLimits,
  ) {
    this.#cache = new LedgerCache(limits);
  }

  windows(session: string, requests: readonly LedgerRequest[]): LedgerWindows {
    if (requests.length === 0) return [];
    const s = this.#statements();
    // Nothing committed elsewhere since the cache was filled: what it holds is the database now.
    if (this.#cache.validate(s.version.get() as number)) {
      const held = requests.map((r) => this.#window(session, r, false));
      if (held.every((w) => w !== undefined)) return held as LedgerWindows;
    }
    return this.raw.transaction(() => {
      // The first statement of the read transaction: its version is the snapshot the reads see.
      this.#cache.validate(s.version.get() as number);
      return requests.map((r) => this.#window(session, r, true)) as LedgerWindows;
    })();
  }

  /** An observation this connection committed. */
  inserted(row: InsertedObservation & { source_key: string }): void {
    this.#guard(() =>
      this.#cache.inserted(row, () => {
        const tool = this.#statements().toolOfKey.get(row.source_key);
        return typeof tool === 'string' ? tool : null;
      }),
    );
  }

  /** An audit row this connection appended (called inside its transaction, so it must not throw). */
  appended(facts: AppendedFacts): void {
    if (facts.kind !== 'decision' || facts.dry_run !== 0) return;
    if (facts.outcome !== 'pass' && facts.outcome !== 'dispatch') return;
    this.#guard(() => this.#cache.dispatched(facts.session, facts.tool));
  }

  /** A failure in the cache must never fail a write that committed: it is dropped instead. */
  #guard(fn: () => void): void {
    try {
      fn();
    } catch {
      this.#cache.clear();
    }
  }

  /** One window; `read` false: only what the cache holds (undefined if any part is not held). */
  #window(session: string, r: LedgerRequest, read: boolean): Observation[] | DispatchRecord[] | undefined {
    const observed = r.kind === 'observed';
    const tools = LEDGER.toolFilter(r.query.tools, observed);
    const limit = LEDGER.windowLimit(r.query.limit);
    const since = r.query.since;
    if (observed) {
      const lists: Observation[][] = [];
      for (const tool of tools ?? [null]) {
        const list =
          this.#cache.observations(session, tool, since, limit) ??
          (read ? this.#readObservations(session, tool, since, limit) : undefined);
        if (list === undefined) return undefined;
        lists.push(list);
      }
      return LEDGER.mergeNewest(lists, limit, LEDGER.newerObservation);
    }
    const lists: DispatchRecord[][] = [];
    for (const tool of tools ?? [null]) {
      const list =
        this.#cache.dispatches(session, tool, since, limit) ??
        (read ? this.#readDispatches(session, tool, since, limit) : undefined);
      if (list === undefined) return undefined;
      lists.push(list);
    }
    return LEDGER.mergeNewest(lists, limit, LEDGER.newerDispatch);
  }

  #readObservations(session: string, tool: string | null, since: number, limit: number): Observation[] {
    const s = this.#statements();
    const rows = (
      tool === null
        ? s.observations.all(session, since, limit)
        : s.observationsOf.all(session, tool, since, limit)
    ) as { doc: string; observed_ms: number }[];
    return this.#cache.keepObservations(session, tool, since, limit, rows);
  }

  #readDispatches(session: string, tool: string | null, since: number, limit: number): DispatchRecord[] {
    const s = this.#statements();
    const rows = (
      tool === null
        ? s.dispatches.all(session, since, limit)
        : s.dispatchesOf.all(session, tool, since, limit)
    ) as LEDGER.DispatchRow[];
    return this.#cache.keepDispatches(session, tool, since, limit, rows);
  }

  #statements(): Statements {
    const raw = this.raw;
    this.#s ??= {
      version: raw.prepare('PRAGMA data_version').pluck(),
      observations: raw.prepare(LEDGER.SQLITE.observations),
      observationsOf: raw.prepare(LEDGER.SQLITE.observationsOf),
      dispatches: raw.prepare(LEDGER.SQLITE.dispatches),
      dispatchesOf: raw.prepare(LEDGER.SQLITE.dispatchesOf),
      toolOfKey: raw.prepare(LEDGER.SQLITE.toolOfKey).pluck(),
    };
    return this.#s;
  }
}
