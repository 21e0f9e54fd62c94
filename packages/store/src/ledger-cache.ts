// Each session's newest ledger windows in memory, for one SQLite connection: a precondition met a
// moment ago is judged again without reading the same rows again. The windows are kept true by the
// connection's own writes (an observation it inserts goes into each window it belongs to; a decision
// row it appends drops the windows of that tool) and all dropped as soon as another connection has
// committed (the caller compares SQLite's `PRAGMA data_version`, which counts exactly those). Each
// window is the answer one query gave, kept for that same query; anything not held is read from the
// database. Bounded by sessions and by the bytes of the rows' stored JSON.
import type { Observation } from '@tollgate/contracts';
import type { DispatchRecord } from '@tollgate/core';
import { type DispatchRow, dispatchRecord } from './ledger-window.js';

export interface LedgerCacheLimits {
  /** Sessions held at once; the least recently used is dropped first. */
  sessions: number;
  /** The stored JSON of every row held, in UTF-16 code units (a bound, not an exact size). */
  bytes: number;
  /** The most one window may hold; a larger one is read from the database each time. */
  windowBytes: number;
}

export const CACHE_LIMITS: LedgerCacheLimits = {
  sessions: 256,
  bytes: 4 * 1024 * 1024,
  windowBytes: 256 * 1024,
};

/** Per row: what it costs beyond its JSON (object headers, the parsed copy's keys). */
const ROW_OVERHEAD = 128;

interface Row<T> {
  value: T;
  /** observed_ms of an observation (the order of its windows); unused for dispatches. */
  ms: number;
  id: string;
  size: number;
}

interface Window<T> {
  observed: boolean;
  /** The one tool the window's query filtered on; null for every tool. */
  tool: string | null;
  since: number;
  limit: number;
  /** Newest first, exactly as the query returned them (or would now). */
  rows: Row<T>[];
  bytes: number;
}

type AnyWindow = Window<Observation> | Window<DispatchRecord>;

/** An observation this connection committed, as stored (rows.ts observationRow). */
export interface InsertedObservation {
  session: string;
  id: string;
  observed_ms: number;
  doc: string;
}

export class LedgerCache {
  #version: number | undefined;
  /** Sessions in least-recently-used order (a Map keeps insertion order; a use re-inserts). */
  readonly #sessions = new Map<string, Map<string, AnyWindow>>();
  #bytes = 0;
  /** The session last marked used, so a run of reads of one session re-inserts it once. */
  #newest: string | undefined;

  constructor(private readonly limits: LedgerCacheLimits = CACHE_LIMITS) {}

  /**
   * Whether what is held still speaks for the database whose data_version is `version` (no other
   * connection committed since it was read); if not, everything is dropped and `version` is the new
   * reference. Reads that fill the cache must take `version` in the same read transaction, first.
   */
  validate(version: number): boolean {
    if (version === this.#version) return true;
    this.clear();
    this.#version = version;
    return false;
  }

  clear(): void {
    this.#sessions.clear();
    this.#bytes = 0;
  }

  /** Rows held across every session (for tests of the bounds). */
  get bytes(): number {
    return this.#bytes;
  }

  get sessions(): number {
    return this.#sessions.size;
  }

  observations(
    session: string,
    tool: string | null,
    since: number,
    limit: number,
  ): Observation[] | undefined {
    return this.#get(session, key(true, tool, since, limit)) as Observation[] | undefined;
  }

  dispatches(
    session: string,
    tool: string | null,
    since: number,
    limit: number,
  ): DispatchRecord[] | undefined {
    return this.#get(session, key(false, tool, since, limit)) as DispatchRecord[] | undefined;
  }

  /** Parses an observations query's answer (stored docs, newest first), keeps it when it fits, returns it. */
  keepObservations(
    session: string,
    tool: string | null,
    since: number,
    limit: number,
    rows: readonly { doc: string; observed_ms: number }[],
  ): Observation[] {
    const held: Row<Observation>[] = rows.map((r) => {
      const value = deepFreeze(JSON.parse(r.doc) as Observation);
      return { value, ms: Number(r.observed_ms), id: value.id, size: r.doc.length + ROW_OVERHEAD };
    });
    this.#put(session, { observed: true, tool, since, limit, rows: held, bytes: sizeOf(held) });
    return held.map((r) => r.value);
  }

  /** A dispatches query's answer (rows newest first), as records; kept when it fits. */
  keepDispatches(
    session: string,
    tool: string | null,
    since: number,
    limit: number,
    rows: readonly DispatchRow[],
  ): DispatchRecord[] {
    // A row whose call does not parse is left out of the answer, as before the cache.
    const held: Row<DispatchRecord>[] = rows.flatMap((r) => {
      const value = dispatchRecord(r);
      if (value === undefined) return [];
      return [
        { value: deepFreeze(value), ms: value.at, id: value.id, size: (r.call?.length ?? 0) + ROW_OVERHEAD },
      ];
    });
    this.#put(session, { observed: false, tool, since, limit, rows: held, bytes: sizeOf(held) });
    return held.map((r) => r.value);
  }

  /**
   * An observation this connection committed: each held window of its session that it belongs to
   * takes it in place, or is dropped when its new contents would be ambiguous (a tie in time at the
   * window's edge, where the database picks). `toolOf` gives the tool of its source key as the
   * queries' filter sees it; it is asked only when a window filters on a tool.
   */
  inserted(o: InsertedObservation, toolOf: () => string | null): void {
    const windows = this.#sessions.get(o.session);
    if (windows === undefined) return;
    let tool: string | null | undefined;
    let value: Observation | undefined;
    for (const [k, w] of windows) {
      if (!w.observed) continue;
      if (w.tool !== null) {
        tool ??= toolOf();
        if (tool !== w.tool) continue;
      }
      value ??= deepFreeze(JSON.parse(o.doc) as Observation);
      const row: Row<Observation> = { value, ms: o.observed_ms, id: o.id, size: o.doc.length + ROW_OVERHEAD };
      if (!this.#insertInto(w as Window<Observation>, row)) this.#drop(windows, k);
    }
    this.#fit();
  }

  /** A decision row this connection appended that dispatch windows count: those of its tool are read again. */
  dispatched(session: string, tool: string | null): void {
    const windows = this.#sessions.get(session);
    if (windows === undefined) return;
    for (const [k, w] of windows) {
      if (!w.observed && (w.tool === null || w.tool === tool)) this.#drop(windows, k);
    }
  }

  /** Puts `row` where the window's query would now place it; false when that is not certain. */
  #insertInto(w: Window<Observation>, row: Row<Observation>): boolean {
    if (row.ms < w.since) return true; // older than the window asks for: not in it
    const rows = w.rows;
    const full = rows.length >= w.limit;
    const last = rows[rows.length - 1];
    if (full && last !== undefined) {
      if (row.ms < last.ms) return true; // older than everything the window holds
      if (row.ms === last.ms) return false; // a tie at the edge: which of them the query keeps is its choice
    }
    let at = 0;
    while (at < rows.length && isNewer(rows[at] as Row<Observation>, row)) at++;
    rows.splice(at, 0, row);
    w.bytes += row.size;
    this.#bytes += row.size;
    if (rows.length > w.limit) {
      const out = rows.pop() as Row<Observation>;
      w.bytes -= out.size;
      this.#bytes -= out.size;
      // The row pushed out tied with the one now last: the query could have kept either.
      if (rows[rows.length - 1]?.ms === out.ms) return false;
    }
    return w.bytes <= this.limits.windowBytes;
  }

  #get(session: string, k: string): unknown[] | undefined {
    const windows = this.#sessions.get(session);
    const w = windows?.get(k);
    if (windows === undefined || w === undefined) return undefined;
    this.#touch(session, windows);
    const out = new Array(w.rows.length);
    for (let i = 0; i < w.rows.length; i++) out[i] = (w.rows[i] as Row<unknown>).value;
    return out;
  }

  #put(session: string, w: AnyWindow): void {
    if (w.bytes > this.limits.windowBytes) return;
    const windows = this.#sessions.get(session) ?? new Map<string, AnyWindow>();
    this.#touch(session, windows);
    const k = key(w.observed, w.tool, w.since, w.limit);
    this.#drop(windows, k);
    windows.set(k, w);
    this.#bytes += w.bytes;
    this.#fit();
  }

  /** Marks the session most recently used (a check asks for several windows of one session in a row). */
  #touch(session: string, windows: Map<string, AnyWindow>): void {
    if (this.#newest === session && this.#sessions.has(session)) return;
    this.#sessions.delete(session);
    this.#sessions.set(session, windows);
    this.#newest = session;
  }

  #drop(windows: Map<string, AnyWindow>, k: string): void {
    const w = windows.get(k);
    if (w === undefined) return;
    windows.delete(k);
    this.#bytes -= w.bytes;
  }

  /** Drops the least recently used sessions until the bounds hold. */
  #fit(): void {
    for (const [session, windows] of this.#sessions) {
      if (this.#sessions.size <= this.limits.sessions && this.#bytes <= this.limits.bytes) return;
      for (const w of windows.values()) this.#bytes -= w.bytes;
      this.#sessions.delete(session);
    }
  }
}

/** One key per query: a tool name may hold any character, but since and limit are numbers, so the key is unambiguous read from the end. */
function key(observed: boolean, tool: string | null, since: number, limit: number): string {
  return `${observed ? 'o' : 'd'}${tool === null ? '*' : `=${tool}`}\u0000${since}\u0000${limit}`;
}

/** The windows' order: newest time first, then the greater id (the queries' ORDER BY). */
function isNewer(a: Row<unknown>, b: Row<unknown>): boolean {
  return a.ms > b.ms || (a.ms === b.ms && a.id > b.id);
}

function sizeOf(rows: readonly Row<unknown>[]): number {
  let n = 0;
  for (const r of rows) n += r.size;
  return n;
}

/** Rows are handed out again and again: none may be changed by whoever reads them. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
