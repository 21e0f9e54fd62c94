// The shared query-field rules, as every route's parser relies on them: bounds and digits-only for
// numbers, ISO or epoch milliseconds for times, 1 to 256 characters for text filters, and every
// problem recorded under its own path.
import { describe, expect, it } from 'vitest';
import { parseAuditQuery } from './query.js';
import { dateTime, parseWhen, type QueryProblem, textFilters, wholeNumber } from './query-fields.js';
import { parseReportQuery } from './report-query.js';

describe('wholeNumber', () => {
  it('takes digits within the bounds and names everything else', () => {
    const problems: QueryProblem[] = [];
    expect(wholeNumber('limit', '7', 1, 10, problems)).toBe(7);
    expect(wholeNumber('limit', '010', 1, 10, problems)).toBe(10);
    expect(problems).toEqual([]);
    for (const bad of ['0', '11', '-1', '1.0', '1e1', ' 5', '', '0x5', '99999999999999999999']) {
      expect(wholeNumber('limit', bad, 1, 10, problems), bad).toBeUndefined();
    }
    expect(problems).toHaveLength(9);
    expect(problems[0]).toEqual({ path: '/query/limit', message: 'limit must be an integer from 1 to 10' });
  });
});

describe('dateTime', () => {
  it('reads ISO 8601 and epoch milliseconds, and names anything else', () => {
    const problems: QueryProblem[] = [];
    expect(dateTime('since', '2026-11-22T12:00:00Z', problems)).toBe(Date.parse('2026-11-22T12:00:00Z'));
    expect(dateTime('since', '1700000000000', problems)).toBe(1_700_000_000_000);
    expect(dateTime('until', 'yesterday', problems)).toBeUndefined();
    expect(dateTime('until', '2026-13-45', problems)).toBeUndefined();
    expect(problems.map((p) => p.path)).toEqual(['/query/until', '/query/until']);
    expect(parseWhen('Nov 22 2026')).toBeUndefined();
  });
});

describe('textFilters', () => {
  it('copies 1 to 256 characters and names empty or longer values', () => {
    const problems: QueryProblem[] = [];
    const query: { session?: string; agent?: string } = {};
    textFilters({ session: 's'.repeat(256), agent: '', other: 'x' }, ['session', 'agent'], query, problems);
    expect(query).toEqual({ session: 's'.repeat(256) });
    expect(problems).toEqual([{ path: '/query/agent', message: 'agent must be 1 to 256 characters' }]);
    textFilters({ session: 's'.repeat(257) }, ['session'], {}, problems);
    expect(problems[1]?.path).toBe('/query/session');
  });
});

describe('the parsers built on them', () => {
  it('defaults the audit limit, and reports every bad field of a report query at once', () => {
    expect(parseAuditQuery({}, true)).toEqual({ ok: true, query: { limit: 100 } });
    expect(parseAuditQuery({}, false)).toEqual({ ok: true, query: {} });
    const parsed = parseReportQuery({ since: 'x', until: 'y', rule: '', limit: '201', session: 'a' });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems.map((p) => p.path)).toEqual([
      '/query/since',
      '/query/until',
      '/query/rule',
      '/query/limit',
    ]);
    expect(parseReportQuery({ limit: '0', tool: 't' })).toEqual({ ok: true, query: { limit: 0, tool: 't' } });
  });
});
