// The report's additive views read from the day rollups (audit-rollup.ts) for the whole UTC days of
// its window, leaving only the window's partial edge days to the raw facts: a seven-day report then
// sums a few thousand rollup rows and scans at most one partial day of rows, instead of every row
// of the seven days. The split is exact: a row belongs to exactly one piece by its at_ms.
import type { ReportQuery } from '@tollgate/core';
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { DAY_MS, fromKey, ROLLUP_VALUES, toKey } from './audit-rollup.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;
type Num = number | string | null | undefined;

/** Whole days [from, to) read from the rollups (to absent: no end), and the windows left to raw rows. */
export interface WindowSplit {
  days?: { from: number; to?: number };
  raw: ReportQuery[];
}

/**
 * Splits the window into whole rollup days and raw edges. Rollups have no session, so a session
 * filter or grouping reads raw rows throughout; day 0 and earlier stay raw too (at_ms / DAY_MS
 * truncates toward zero, so "day 0" would span two days of negative and positive times).
 */
export function splitWindow(q: ReportQuery): WindowSplit {
  if (q.session !== undefined || q.by === 'session') return { raw: [q] };
  const from = q.since === undefined ? 1 : Math.max(1, Math.ceil(q.since / DAY_MS));
  const to = q.until === undefined ? undefined : Math.floor(q.until / DAY_MS);
  if (to !== undefined && to <= from) return { raw: [q] };
  const raw: ReportQuery[] = [];
  if (q.since === undefined || q.since < from * DAY_MS) raw.push({ ...q, until: from * DAY_MS });
  if (to !== undefined && q.until !== undefined && to * DAY_MS < q.until)
    raw.push({ ...q, since: to * DAY_MS });
  return { days: to === undefined ? { from } : { from, to }, raw };
}

const VALUES = sql.raw(
  ROLLUP_VALUES.map((c) => (c === 'last_ms' ? 'max(u.last_ms) as last_ms' : `sum(u.${c}) as ${c}`)).join(
    ', ',
  ),
);

/** The days and the agent and tool filters over rollup alias u. */
function where(days: NonNullable<WindowSplit['days']>, q: ReportQuery): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`u.day >= ${days.from}`];
  if (days.to !== undefined) parts.push(sql`u.day < ${days.to}`);
  if (q.agent !== undefined) parts.push(sql`u.agent = ${toKey(q.agent)}`);
  if (q.tool !== undefined) parts.push(sql`u.tool = ${toKey(q.tool)}`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

/**
 * Sums per (agent, day, tool when asked for, first reason) over the rows of the days — or over the
 * rows naming q.rule — with the keys decoded as the raw scan writes them (`a`, `d`, `x`, `rc`;
 * `none` in place of a missing agent or tool).
 */
export async function rollupByAgentDay(
  db: Db,
  days: NonNullable<WindowSplit['days']>,
  q: ReportQuery,
  byTool: boolean,
  none: string,
): Promise<Record<string, Num>[]> {
  const rule = q.rule === undefined ? '' : toKey(q.rule);
  const x = byTool ? sql`u.tool` : sql`''`;
  const { rows } = await sql<Record<string, Num>>`
    select u.agent as a, u.day as d, ${x} as x, u.reason as rc, ${VALUES} from audit_rollup u
    where u.rule = ${rule} and ${where(days, q)} group by 1, 2, 3, 4`.execute(db);
  return rows.map((row) => ({
    ...row,
    a: fromKey(row.a) ?? none,
    x: byTool ? (fromKey(row.x) ?? none) : '',
    rc: fromKey(row.rc),
  }));
}

/** Sums per rule over the days (no rule filter: a filtered per-rule view needs the rows' other rules). */
export async function rollupByRule(
  db: Db,
  days: NonNullable<WindowSplit['days']>,
  q: ReportQuery,
): Promise<Record<string, Num>[]> {
  const { rows } = await sql<Record<string, Num>>`
    select u.rule as k, ${VALUES} from audit_rollup u
    where u.rule <> '' and ${where(days, q)} group by u.rule`.execute(db);
  return rows.map((row) => ({ ...row, k: fromKey(row.k) }));
}
