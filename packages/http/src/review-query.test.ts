import { describe, expect, test } from 'vitest';
import { parseReviewQuery, REVIEW_DEFAULT_LIMIT } from './review-query.js';

describe('parseReviewQuery', () => {
  test('takes the filters of tollgate review list', () => {
    expect(parseReviewQuery({})).toEqual({ ok: true, query: { limit: REVIEW_DEFAULT_LIMIT } });
    expect(parseReviewQuery({ status: 'pending', session: 's1', agent: 'bot', limit: '500' })).toEqual({
      ok: true,
      query: { status: 'pending', session: 's1', agent: 'bot', limit: 500 },
    });
  });

  test('names every bad parameter', () => {
    const parsed = parseReviewQuery({ status: 'expired', limit: '1e2', session: '', agent: 'x'.repeat(257) });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.path)).toEqual([
      '/query/limit',
      '/query/status',
      '/query/session',
      '/query/agent',
    ]);
    for (const limit of ['0', '501', '-1', ' 5', '5.0'])
      expect(parseReviewQuery({ limit }).ok, limit).toBe(false);
  });
});
