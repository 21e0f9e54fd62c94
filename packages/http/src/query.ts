// Query parameters for the audit and report routes: parsed strictly, each problem with its path.
import type { AuditQuery } from '@tollgate/core';
import { dateTime, type QueryProblem, textFilters, wholeNumber } from './query-fields.js';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type QueryParse =
  | { ok: true; query: AuditQuery & { session?: string; agent?: string } }
  | { ok: false; problems: QueryProblem[] };

export function parseAuditQuery(params: Record<string, string>, withLimit: boolean): QueryParse {
  const problems: QueryProblem[] = [];
  const query: AuditQuery & { session?: string; agent?: string } = {};
  const { limit, since } = params;
  if (withLimit) {
    const n = limit === undefined ? DEFAULT_LIMIT : wholeNumber('limit', limit, 1, MAX_LIMIT, problems);
    if (n !== undefined) query.limit = n;
  }
  if (since !== undefined) {
    const ms = dateTime('since', since, problems);
    if (ms !== undefined) query.since = ms;
  }
  textFilters(params, ['session', 'agent'], query, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isUlid(id: string): boolean {
  return ULID.test(id);
}
