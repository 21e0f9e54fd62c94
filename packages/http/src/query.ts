// Query parameters for the audit and report routes: parsed strictly, each problem with its path.
import type { AuditQuery } from '@tollgate/core';

export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;

export type QueryParse =
  | { ok: true; query: AuditQuery & { session?: string; agent?: string } }
  | { ok: false; problems: { path: string; message: string }[] };

const ISO = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/;

export function parseAuditQuery(params: Record<string, string>, withLimit: boolean): QueryParse {
  const problems: { path: string; message: string }[] = [];
  const query: AuditQuery = {};
  const { limit, since, session, agent } = params;
  if (withLimit) {
    const n = limit === undefined ? DEFAULT_LIMIT : Number(limit);
    if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT || (limit !== undefined && !/^\d+$/.test(limit)))
      problems.push({ path: '/query/limit', message: `limit must be an integer from 1 to ${MAX_LIMIT}` });
    else query.limit = n;
  }
  if (since !== undefined) {
    const ms = parseWhen(since) ?? Number.NaN;
    if (Number.isNaN(ms))
      problems.push({
        path: '/query/since',
        message: 'since must be an ISO 8601 date-time or epoch milliseconds',
      });
    else query.since = ms;
  }
  for (const [key, value] of [
    ['session', session],
    ['agent', agent],
  ] as const) {
    if (value === undefined) continue;
    if (value === '' || value.length > 256)
      problems.push({ path: `/query/${key}`, message: `${key} must be 1 to 256 characters` });
    else query[key] = value;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}

/** An ISO 8601 date-time or epoch milliseconds as epoch ms; undefined when it is neither. */
export function parseWhen(text: string): number | undefined {
  const ms = /^\d+$/.test(text) ? Number(text) : ISO.test(text) ? Date.parse(text) : Number.NaN;
  return Number.isNaN(ms) ? undefined : ms;
}

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isUlid(id: string): boolean {
  return ULID.test(id);
}
