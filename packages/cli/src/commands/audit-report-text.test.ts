// The report's figures as the terminal and as CSV write them: one list of figures behind both, so the
// CSV has every figure in its documented order and the terminal the subset it shows, formatted.
import type { CalibrationReport, ReportFigures } from '@tollgate/core';
import { expect, it } from 'vitest';
import { reportCsv, reportText } from './audit-report-text.js';

const figures: ReportFigures = {
  decisions: 10,
  by_outcome: { pass: 4, dispatch: 3, declined: 1, rejected: 2 },
  dry_runs: 5,
  would_reject: 6,
  escalations: 7,
  overrides: 8,
  rates: { decline: 0.1667, rejection: 0.3333, override: 0.5, escalation: null },
  claims: { matched: 11, mismatched: 12, unverifiable: 13 },
  accuracy: 0.4783,
  predictions: { observed: 14, all_matched: 0.25, unverifiable: 0.75 },
  brier: { score: 0.1367, claims: 15 },
};
const spread = { n: 0, median: null, p90: null };
const flag = { count: 0, rows: [] };
const report: CalibrationReport = {
  schema: 'tollgate.report/v1',
  generated_at: '2026-11-23T00:00:00.000Z',
  window: { since: null, until: null },
  never_fired: [],
  rows: 20,
  totals: figures,
  by_agent: { '=cmd': figures },
  by_rule: {},
  series: [],
  top_reasons: [],
  latency: { evidence_age_s: spread, rejection_to_prediction_s: spread, directive_to_action_ms: spread },
  rules: [],
  mismatches: [],
  flags: { perfunctory: flag, declined_while_queryable: flag, repeated: flag },
};

it('writes every figure to CSV in order, and an agent name starting like a formula as text', () => {
  const [head, all, agent] = reportCsv(report, undefined).trimEnd().split('\n');
  expect(head).toBe(
    'view,key,decisions,pass,dispatch,declined,rejected,dry_runs,would_reject,escalations,overrides,' +
      'decline_rate,rejection_rate,override_rate,escalation_rate,matched,mismatched,unverifiable,accuracy,' +
      'predictions,all_matched_share,unverifiable_share,brier,brier_claims',
  );
  expect(all).toBe('all,,10,4,3,1,2,5,6,7,8,0.1667,0.3333,0.5,,11,12,13,0.4783,14,0.25,0.75,0.1367,15');
  expect(agent).toBe(
    "agent,'=cmd,10,4,3,1,2,5,6,7,8,0.1667,0.3333,0.5,,11,12,13,0.4783,14,0.25,0.75,0.1367,15",
  );
});

it('shows the terminal subset of the figures, shares as percentages', () => {
  const lines = reportText(report, undefined).split('\n');
  const at = lines.indexOf('by agent');
  expect(lines[at + 1]?.split(/\s+/)).toEqual([
    'agent',
    'decisions',
    'pass',
    'dispatch',
    'declined',
    'rejected',
    'decline',
    'reject',
    'override',
    'escalate',
    'matched',
    'mismatch',
    'unverif',
    'accuracy',
    'all-ok',
    'brier',
  ]);
  expect(lines[at + 3]?.split(/\s+/)).toEqual([
    '(all)',
    '10',
    '4',
    '3',
    '1',
    '2',
    '16.7%',
    '33.3%',
    '50.0%',
    '-',
    '11',
    '12',
    '13',
    '47.8%',
    '25.0%',
    '0.1367',
  ]);
});
