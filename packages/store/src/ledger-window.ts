// The session's ledger newest first, for preconditions: observations, and the calls the gate let
// through (decision rows with outcome pass or dispatch, not a dry look). Both windows are bounded by
// age and count. Both stores share the SQL; only parameter styles and JSON access differ.
import type { Observation } from '@tollgate/contracts';
import type { DispatchRecord } from '@tollgate/core';
import type { Dialect } from './schema.js';

/** The tool name inside an observation's source key, as SQL per dialect (indexed by migration 0008). */
export const TOOL_OF_KEY: Record<Dialect, string> = {
  sqlite: `(CASE WHEN json_valid(source_key) THEN json_extract(source_key, '$.tool') END)`,
  postgres: `(substring(source_key from '^\\{"args":.*,"tool":"([^"\\\\]*)"\\}$'))`,
};

/** The most rows one window returns, whatever a caller asks: a precondition never walks a whole session. */
export const MAX_WINDOW = 4096;

// A tool filter reads the indexed tool of each row's source key (migration-ledger.ts), never the
// document: it only narrows, and core matches each row's parsed source. Shell reads have no tool in
// their key, so a filter naming `shell` is no filter.
const SQLITE_TOOL = TOOL_OF_KEY.sqlite;
const PG_TOOL = TOOL_OF_KEY.postgres;

export const SQLITE = {
  // Every query sorts on narrow columns only; the documents of rows past the window are never read.
  observations: `SELECT observed_ms, doc FROM observations WHERE rowid IN (
                   SELECT rowid FROM observations WHERE session = ? AND observed_ms >= ?
                   ORDER BY observed_ms DESC, id DESC LIMIT ?)
                 ORDER BY observed_ms DESC, id DESC`,
  // One tool per query: an equality on the indexed expression walks observations_by_tool newest
  // first and stops at the limit (the planner would scan the session for an IN list).
  observationsOf: `SELECT observed_ms, doc FROM observations WHERE rowid IN (
                     SELECT rowid FROM observations INDEXED BY observations_by_tool
                     WHERE session = ? AND ${SQLITE_TOOL} = ? AND observed_ms >= ?
                     ORDER BY observed_ms DESC LIMIT ?)
                   ORDER BY observed_ms DESC, id DESC`,
  // The tool an observation's source key files it under, as the filter above reads it (one value).
  toolOfKey: `SELECT ${SQLITE_TOOL} FROM (SELECT ? AS source_key)`,
  dispatches: `SELECT a.id AS id, a.at_ms AS at_ms, json_extract(a.doc, '$.call') AS call
               FROM audit_facts f JOIN audit a ON a.seq = f.seq
               WHERE f.session = ? AND f.kind = 'decision' AND f.dry_run = 0
                 AND f.outcome IN ('pass', 'dispatch') AND f.at_ms >= ?
               ORDER BY f.seq DESC LIMIT ?`,
  dispatchesOf: `SELECT a.id AS id, a.at_ms AS at_ms, json_extract(a.doc, '$.call') AS call
                 FROM audit_facts f JOIN audit a ON a.seq = f.seq
                 WHERE f.session = ? AND f.kind = 'decision' AND f.dry_run = 0
                   AND f.outcome IN ('pass', 'dispatch') AND f.tool = ? AND f.at_ms >= ?
                 ORDER BY f.seq DESC LIMIT ?`,
};

const PG_DISPATCH = `SELECT a.id AS id, a.at_ms AS at_ms, (a.doc::json -> 'call')::text AS call
           FROM audit_facts f JOIN audit a ON a.seq = f.seq
           WHERE f.session = $1 AND f.kind = 'decision' AND f.dry_run = 0
             AND f.outcome IN ('pass', 'dispatch') AND f.at_ms >= $2`;

export const PG = {
  observations: {
    name: 'tg_ledger_observations',
    text: `SELECT doc FROM observations WHERE session = $1 AND observed_ms >= $2
           ORDER BY observed_ms DESC, id DESC LIMIT $3`,
  },
  observationsOf: {
    name: 'tg_ledger_observations_of',
    text: `SELECT doc FROM observations WHERE session = $1 AND observed_ms >= $2 AND ${PG_TOOL} = $4
           ORDER BY observed_ms DESC, id DESC LIMIT $3`,
  },
  dispatches: { name: 'tg_ledger_dispatches', text: `${PG_DISPATCH} ORDER BY f.seq DESC LIMIT $3` },
  dispatchesOf: {
    name: 'tg_ledger_dispatches_of',
    text: `${PG_DISPATCH} AND f.tool = $4 ORDER BY f.seq DESC LIMIT $3`,
  },
};

/** The tools to filter by, each once; null for all (none given, or `shell`, whose reads carry no tool in their key). */
export function toolFilter(tools: readonly string[] | undefined, observations: boolean): string[] | null {
  if (tools === undefined || tools.length === 0) return null;
  if (observations && tools.includes('shell')) return null;
  // One tool (what a precondition asks, on every check) needs no copy to be unique.
  return tools.length === 1 ? (tools as string[]) : [...new Set(tools)];
}

/**
 * One window from per-tool windows (each newest first, each at most `limit`): merged newest first,
 * the newest `limit` kept. `newer` orders two rows.
 */
export function mergeNewest<T>(lists: T[][], limit: number, newer: (a: T, b: T) => number): T[] {
  if (lists.length === 1) return lists[0] ?? [];
  return lists.flat().sort(newer).slice(0, limit);
}

export function windowLimit(limit: number): number {
  return Number.isInteger(limit) && limit > 0 ? Math.min(limit, MAX_WINDOW) : 1;
}

export interface DispatchRow {
  id: string;
  at_ms: number | string | null;
  call: string | null;
}

/** A dispatched decision row as preconditions match it: the call's tool, action and args. */
export function dispatchRecord(row: DispatchRow): DispatchRecord | undefined {
  let call: unknown;
  try {
    call = row.call === null ? undefined : JSON.parse(row.call);
  } catch {
    return undefined;
  }
  if (call === null || typeof call !== 'object') return undefined;
  const c = call as { tool?: unknown; action?: unknown; args?: unknown; truncated?: unknown };
  if (typeof c.tool !== 'string') return undefined;
  const out: DispatchRecord = { id: row.id, at: Number(row.at_ms ?? 0), tool: c.tool };
  if (typeof c.action === 'string') out.action = c.action;
  if (c.truncated !== true && c.args !== null && typeof c.args === 'object' && !Array.isArray(c.args))
    out.args = c.args as Record<string, unknown>;
  return out;
}

/** Newest first: by observation time, then id (ULIDs). */
export function newerObservation(a: Observation, b: Observation): number {
  return a.observed_at === b.observed_at ? (a.id < b.id ? 1 : -1) : a.observed_at < b.observed_at ? 1 : -1;
}

/** Newest first: by decision time, then id. */
export function newerDispatch(a: DispatchRecord, b: DispatchRecord): number {
  return a.at === b.at ? (a.id < b.id ? 1 : -1) : b.at - a.at;
}
