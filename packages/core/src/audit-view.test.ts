// mergeOutcomes: a decision with its outcome rows, the newest outcome's result and claims on top.
// (auditView over a real store is exercised end to end by `tollgate audit show` in test/.)
import type { AuditRow } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { mergeOutcomes } from './audit-view.js';

const base = { session: 's', prev_hash: '0'.repeat(64), hash: '0'.repeat(64), at: '2026-11-22T12:00:00Z' };
const decision: AuditRow = { ...base, id: 'D', seq: 1, kind: 'decision', outcome: 'dispatch' };
const claim = { subject: 'git ls-remote origin', op: 'contains' as const, value: 'abc' };

describe('mergeOutcomes', () => {
  it('keeps the decision row and adds an empty outcome list when nothing came back', () => {
    expect(mergeOutcomes(decision, [])).toEqual({ ...decision, outcomes: [] });
  });

  it('takes result and claims from the newest outcome', () => {
    const first: AuditRow = {
      ...base,
      id: 'O1',
      seq: 2,
      kind: 'outcome',
      ref: 'D',
      result: { status: 'error' },
    };
    const second: AuditRow = {
      ...base,
      id: 'O2',
      seq: 3,
      kind: 'outcome',
      ref: 'D',
      result: { status: 'ok', exit_code: 0 },
      claims: [{ claim, observed: 'abc refs/heads/main', result: 'matched' }],
    };
    const view = mergeOutcomes(decision, [first, second]);
    expect(view.outcomes.map((o) => o.id)).toEqual(['O1', 'O2']);
    expect(view.result).toEqual({ status: 'ok', exit_code: 0 });
    expect(view.claims?.[0]?.result).toBe('matched');
    expect(view.id).toBe('D');
  });
});
