// The session's ledger newest first, for preconditions: observations, and the calls the gate let
// through (decision rows with outcome pass or dispatch, not a dry look). Both windows are bounded by
// age and count. Both stores share the SQL; only parameter styles and JSON access differ.
import type { DispatchRecord } from '@tollgate/core';

/** The most rows one window returns, whatever a caller asks: a precondition never walks a whole session. */
export const MAX_WINDOW = 4096;

// A tool filter on observations reads source_key, never the document: a tool read's key is the
// canonical JSON {"args":…,"tool":NAME}, so it ends with `,"tool":NAME}` (keys sort; the tool is last).
// The filter only narrows: core matches each row's parsed source (a shell command whose text happens
// to end so is still a shell read there). Shell reads have no such key, so a shell filter is none.
export const SQLITE = {
  // The inner query sorts on the narrow columns only, so the documents of older rows are never read.
  observations: `SELECT doc FROM observations WHERE session = ? AND id IN (
                   SELECT id FROM observations WHERE session = ? AND observed_ms >= ?
                     AND (? IS NULL OR EXISTS (SELECT 1 FROM json_each(?) AS k
                                              WHERE substr(source_key, -length(k.value)) = k.value))
                   ORDER BY observed_ms DESC, id DESC LIMIT ?)
                 ORDER BY observed_ms DESC, id DESC`,
  dispatches: `SELECT a.id AS id, a.at_ms AS at_ms, json_extract(a.doc, '$.call') AS call
               FROM audit a JOIN audit_facts f ON f.seq = a.seq
               WHERE a.session = ? AND a.kind = 'decision' AND a.at_ms >= ?
                 AND f.outcome IN ('pass', 'dispatch') AND f.dry_run = 0
                 AND (? IS NULL OR f.tool IN (SELECT value FROM json_each(?)))
               ORDER BY a.seq DESC LIMIT ?`,
};

export const PG = {
  observations: {
    name: 'tg_ledger_observations',
    text: `SELECT doc FROM observations WHERE session = $1 AND observed_ms >= $2
             AND ($4::text[] IS NULL OR EXISTS (SELECT 1 FROM unnest($4::text[]) AS k
                                                WHERE right(source_key, length(k)) = k))
           ORDER BY observed_ms DESC, id DESC LIMIT $3`,
  },
  dispatches: {
    name: 'tg_ledger_dispatches',
    text: `SELECT a.id AS id, a.at_ms AS at_ms, (a.doc::json -> 'call')::text AS call
           FROM audit a JOIN audit_facts f ON f.seq = a.seq
           WHERE a.session = $1 AND a.kind = 'decision' AND a.at_ms >= $2
             AND f.outcome IN ('pass', 'dispatch') AND f.dry_run = 0
             AND ($4::text[] IS NULL OR f.tool = ANY($4::text[]))
           ORDER BY a.seq DESC LIMIT $3`,
  },
};

/** The source_key endings of tool reads of these tools; null (no filter) when none or `shell` is asked for. */
export function sourceKeySuffixes(tools: readonly string[] | undefined): string[] | null {
  if (tools === undefined || tools.length === 0 || tools.includes('shell')) return null;
  return tools.map((t) => `,"tool":${JSON.stringify(t)}}`);
}

/** The tool names to filter decision rows by; null for all. */
export function toolList(tools: readonly string[] | undefined): string[] | null {
  return tools === undefined || tools.length === 0 ? null : [...tools];
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
