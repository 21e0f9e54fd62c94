// Query parameters of GET /v1/report: the audit filters (query.ts) plus until, rule, tool, by and
// limit, parsed strictly, each problem with its path.
import { REPORT_DIMENSIONS, type ReportDimension, type ReportQuery } from '@tollgate/core';
import { parseAuditQuery } from './query.js';
import { dateTime, type QueryProblem, textFilters, wholeNumber } from './query-fields.js';

export type ReportQueryParse = { ok: true; query: ReportQuery } | { ok: false; problems: QueryProblem[] };

export function parseReportQuery(params: Record<string, string>): ReportQueryParse {
  const base = parseAuditQuery(params, false);
  const problems = base.ok ? [] : [...base.problems];
  const query: ReportQuery = base.ok ? { ...base.query } : {};
  const { until, by, limit } = params;
  if (until !== undefined) {
    const ms = dateTime('until', until, problems);
    if (ms !== undefined) query.until = ms;
  }
  textFilters(params, ['rule', 'tool'], query, problems);
  if (by !== undefined) {
    if (REPORT_DIMENSIONS.includes(by as ReportDimension)) query.by = by as ReportDimension;
    else problems.push({ path: '/query/by', message: `by must be one of ${REPORT_DIMENSIONS.join(', ')}` });
  }
  if (limit !== undefined) {
    const n = wholeNumber('limit', limit, 0, 200, problems);
    if (n !== undefined) query.limit = n;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}
