// The calibration report over hand-made rows: outcomes per agent and rule, decline rate, claim
// results attributed through the outcome row's ref, dry looks counted apart.
import type { AuditRow } from '@tollgate/contracts';
import { describe, expect, it } from 'vitest';
import { calibrationReport, NO_AGENT } from './report.js';

let seq = 0;
function row(fields: Partial<AuditRow>): AuditRow {
  seq++;
  return {
    id: `01J${String(seq).padStart(23, '0')}`,
    seq,
    at: '2026-11-22T12:00:00.000Z',
    kind: 'decision',
    session: 's1',
    prev_hash: '0'.repeat(64),
    hash: '0'.repeat(64),
    ...fields,
  };
}

describe('calibrationReport', () => {
  const push = row({ agent: 'a1', rules: ['git.push.force'], outcome: 'dispatch', reasons: [] });
  const rows = [
    row({ agent: 'a1', rules: ['git.push.force'], outcome: 'rejected', reasons: ['prediction_missing'] }),
    row({
      agent: 'a1',
      rules: ['git.push.force'],
      outcome: 'rejected',
      reasons: ['evidence_stale'],
      dry_run: true,
    }),
    push,
    row({
      kind: 'outcome',
      ref: push.id,
      agent: 'a1',
      result: { status: 'ok' },
      claims: [
        { claim: { subject: 'git ls-remote', op: 'contains', value: 'abc' }, result: 'matched' },
        { claim: { subject: { tool: 'x' }, op: 'exists' }, result: 'unverifiable' },
      ],
    }),
    row({ rules: ['rm.recursive'], outcome: 'declined', reasons: [] }),
    row({ rules: [], outcome: 'pass', reasons: [] }),
  ];
  const report = calibrationReport(rows, Date.parse('2026-11-22T13:00:00Z'));

  it('counts decisions by outcome, leaving dry looks apart', () => {
    expect(report.totals.by_outcome).toEqual({ pass: 1, dispatch: 1, declined: 1, rejected: 1 });
    expect(report.totals.decisions).toBe(4);
    expect(report.totals.dry_runs).toBe(1);
    expect(report.rows).toBe(6);
  });

  it('groups per agent and per rule, with a decline rate over gated decisions', () => {
    expect(Object.keys(report.by_agent)).toEqual([NO_AGENT, 'a1']);
    expect(report.by_rule['git.push.force']?.decline_rate).toBe(0);
    expect(report.by_rule['rm.recursive']?.decline_rate).toBe(1);
    expect(report.totals.decline_rate).toBe(0.3333);
    expect(report.by_agent[NO_AGENT]?.by_outcome.pass).toBe(1);
  });

  it('attributes claim results to the decision the outcome completes', () => {
    expect(report.by_rule['git.push.force']?.claims).toEqual({ matched: 1, mismatched: 0, unverifiable: 1 });
    expect(report.by_rule['git.push.force']?.accuracy).toBe(1);
    expect(report.by_rule['rm.recursive']?.accuracy).toBeNull();
  });

  it('lists the top reason codes, most frequent first', () => {
    expect(report.by_agent.a1?.top_reasons).toEqual([{ code: 'prediction_missing', count: 1 }]);
  });

  it('reports on no rows without dividing by zero', () => {
    const empty = calibrationReport([]);
    expect(empty.totals).toMatchObject({ decisions: 0, decline_rate: null, accuracy: null, top_reasons: [] });
  });
});
