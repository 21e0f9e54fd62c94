// Query parameters of GET /v1/reviews, the filters of `tollgate review list`: status, session, agent,
// limit. Parsed strictly, each problem with its path.
import type { ReviewQuery, ReviewStatus } from '@tollgate/core';
import { type QueryProblem, textFilters, wholeNumber } from './query-fields.js';

export const REVIEW_DEFAULT_LIMIT = 50;
export const REVIEW_MAX_LIMIT = 500;
const STATUSES: readonly ReviewStatus[] = ['pending', 'approved', 'denied'];

export type ReviewQueryParse = { ok: true; query: ReviewQuery } | { ok: false; problems: QueryProblem[] };

export function parseReviewQuery(params: Record<string, string>): ReviewQueryParse {
  const problems: QueryProblem[] = [];
  const { status, limit } = params;
  const query: ReviewQuery = { limit: REVIEW_DEFAULT_LIMIT };
  if (limit !== undefined) {
    const n = wholeNumber('limit', limit, 1, REVIEW_MAX_LIMIT, problems);
    if (n !== undefined) query.limit = n;
  }
  if (status !== undefined) {
    if (STATUSES.includes(status as ReviewStatus)) query.status = status as ReviewStatus;
    else problems.push({ path: '/query/status', message: `status must be one of ${STATUSES.join(', ')}` });
  }
  textFilters(params, ['session', 'agent'], query, problems);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}
