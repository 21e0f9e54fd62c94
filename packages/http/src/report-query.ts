// Query parameters of GET /v1/report: the audit filters (query.ts) plus until, rule, tool, by and
// limit, parsed strictly, each problem with its path.
import { REPORT_DIMENSIONS, type ReportDimension, type ReportQuery } from '@tollgate/core';
import { parseAuditQuery, parseWhen } from './query.js';

export type ReportQueryParse =
  | { ok: true; query: ReportQuery }
  | { ok: false; problems: { path: string; message: string }[] };

export function parseReportQuery(params: Record<string, string>): ReportQueryParse {
  const base = parseAuditQuery(params, false);
  const problems = base.ok ? [] : [...base.problems];
  const query: ReportQuery = base.ok ? { ...base.query } : {};
  const { until, rule, tool, by, limit } = params;
  if (until !== undefined) {
    const ms = parseWhen(until);
    if (ms === undefined)
      problems.push({
        path: '/query/until',
        message: 'until must be an ISO 8601 date-time or epoch milliseconds',
      });
    else query.until = ms;
  }
  for (const [key, value] of [
    ['rule', rule],
    ['tool', tool],
  ] as const) {
    if (value === undefined) continue;
    if (value === '' || value.length > 256)
      problems.push({ path: `/query/${key}`, message: `${key} must be 1 to 256 characters` });
    else query[key] = value;
  }
  if (by !== undefined) {
    if (REPORT_DIMENSIONS.includes(by as ReportDimension)) query.by = by as ReportDimension;
    else problems.push({ path: '/query/by', message: `by must be one of ${REPORT_DIMENSIONS.join(', ')}` });
  }
  if (limit !== undefined) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n > 200)
      problems.push({ path: '/query/limit', message: 'limit must be an integer from 0 to 200' });
    else query.limit = n;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}
