// Query parameters of GET /v1/reviews, the filters of `tollgate review list`: status, session, agent,
// limit. Parsed strictly, each problem with its path.
import type { ReviewQuery, ReviewStatus } from '@tollgate/core';

export const REVIEW_DEFAULT_LIMIT = 50;
export const REVIEW_MAX_LIMIT = 500;
const STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'denied'];

export type ReviewQueryParse =
  | { ok: true; query: ReviewQuery }
  | { ok: false; problems: { path: string; message: string }[] };

export function parseReviewQuery(params: Record<string, string>): ReviewQueryParse {
  const problems: { path: string; message: string }[] = [];
  const { status, session, agent, limit } = params;
  const query: ReviewQuery = { limit: REVIEW_DEFAULT_LIMIT };
  if (limit !== undefined) {
    const n = Number(limit);
    if (!/^\d+$/.test(limit) || n < 1 || n > REVIEW_MAX_LIMIT)
      problems.push({
        path: '/query/limit',
        message: `limit must be an integer from 1 to ${REVIEW_MAX_LIMIT}`,
      });
    else query.limit = n;
  }
  if (status !== undefined) {
    if (STATUSES.includes(status as ReviewStatus)) query.status = status as ReviewStatus;
    else problems.push({ path: '/query/status', message: `status must be one of ${STATUSES.join(', ')}` });
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
