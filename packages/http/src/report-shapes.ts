// The calibration report, the replay request and its result, as OpenAPI shapes (core's report-types.ts
// and replay.ts are the source; report-shapes.test.ts checks real documents against these).
const nullableNumber = { type: ['number', 'null'] };
const count = { type: 'integer', minimum: 0 };
const spread = {
  type: 'object',
  required: ['n', 'median', 'p90'],
  properties: { n: count, median: nullableNumber, p90: nullableNumber },
};

const figures = {
  type: 'object',
  required: [
    'decisions',
    'by_outcome',
    'dry_runs',
    'would_reject',
    'escalations',
    'overrides',
    'rates',
    'claims',
    'accuracy',
    'predictions',
    'brier',
  ],
  properties: {
    decisions: count,
    by_outcome: {
      type: 'object',
      required: ['pass', 'dispatch', 'declined', 'rejected'],
      properties: { pass: count, dispatch: count, declined: count, rejected: count },
    },
    dry_runs: count,
    would_reject: count,
    escalations: count,
    overrides: count,
    rates: {
      type: 'object',
      description: 'Each ÷ gated decisions (dispatch + declined + rejected); null when nothing was gated.',
      required: ['decline', 'rejection', 'override', 'escalation'],
      properties: {
        decline: nullableNumber,
        rejection: nullableNumber,
        override: nullableNumber,
        escalation: nullableNumber,
      },
    },
    claims: {
      type: 'object',
      required: ['matched', 'mismatched', 'unverifiable'],
      properties: { matched: count, mismatched: count, unverifiable: count },
    },
    accuracy: { ...nullableNumber, description: 'matched ÷ (matched + mismatched)' },
    predictions: {
      type: 'object',
      required: ['observed', 'all_matched', 'unverifiable'],
      properties: { observed: count, all_matched: nullableNumber, unverifiable: nullableNumber },
    },
    brier: {
      type: 'object',
      required: ['score', 'claims'],
      properties: { score: nullableNumber, claims: count },
    },
  },
};

const keyed = {
  allOf: [figures, { type: 'object', required: ['key'], properties: { key: { type: 'string' } } }],
};

const rowRef = {
  type: 'object',
  required: ['audit_id', 'link', 'at', 'session', 'agent', 'tool', 'rules'],
  properties: {
    audit_id: { type: 'string' },
    link: { type: 'string', description: 'GET this for the whole decision' },
    at: { type: 'string', format: 'date-time' },
    session: { type: 'string' },
    agent: { type: ['string', 'null'] },
    tool: { type: ['string', 'null'] },
    rules: { type: 'array', items: { type: 'string' } },
    seconds_after_rejection: { type: 'number' },
  },
};
const flag = {
  type: 'object',
  required: ['count', 'rows'],
  properties: { count, rows: { type: 'array', items: rowRef } },
};

export const reportShapes = {
  CalibrationReport: {
    type: 'object',
    description:
      'tollgate.report/v1 — aggregated in the database over the window; `tollgate audit report --json` prints the same document.',
    required: [
      'schema',
      'generated_at',
      'window',
      'rows',
      'totals',
      'by_agent',
      'by_rule',
      'series',
      'top_reasons',
      'latency',
      'rules',
      'never_fired',
      'mismatches',
      'flags',
    ],
    properties: {
      schema: { const: 'tollgate.report/v1' },
      generated_at: { type: 'string', format: 'date-time' },
      window: {
        type: 'object',
        properties: { since: { type: ['string', 'null'] }, until: { type: ['string', 'null'] } },
      },
      rows: count,
      totals: figures,
      by_agent: { type: 'object', additionalProperties: figures },
      by_rule: { type: 'object', additionalProperties: figures },
      groups: { type: 'array', items: keyed, description: 'Present with ?by=' },
      series: { type: 'array', items: keyed, description: 'One entry per UTC day (key YYYY-MM-DD)' },
      top_reasons: {
        type: 'array',
        items: { type: 'object', properties: { code: { type: 'string' }, count } },
      },
      latency: {
        type: 'object',
        required: ['evidence_age_s', 'rejection_to_prediction_s', 'directive_to_action_ms'],
        properties: {
          evidence_age_s: spread,
          rejection_to_prediction_s: spread,
          directive_to_action_ms: spread,
        },
      },
      rules: {
        type: 'array',
        items: {
          allOf: [
            figures,
            {
              type: 'object',
              required: ['rule', 'fires', 'last_fired', 'refusals', 'ended'],
              properties: {
                rule: { type: 'string' },
                fires: count,
                last_fired: { type: ['string', 'null'] },
                refusals: count,
                ended: {
                  type: 'object',
                  required: ['prediction', 'decline', 'override', 'again', 'nothing'],
                  properties: {
                    prediction: count,
                    decline: count,
                    override: count,
                    again: count,
                    nothing: count,
                  },
                },
              },
            },
          ],
        },
      },
      never_fired: { type: 'array', items: { type: 'string' } },
      mismatches: {
        type: 'array',
        items: {
          type: 'object',
          required: ['audit_id', 'outcome_id', 'link', 'at', 'subject', 'op', 'predicted', 'observed'],
          properties: {
            audit_id: { type: 'string' },
            outcome_id: { type: 'string' },
            link: { type: 'string' },
            at: { type: 'string' },
            session: { type: 'string' },
            agent: { type: ['string', 'null'] },
            tool: { type: ['string', 'null'] },
            rules: { type: 'array', items: { type: 'string' } },
            subject: {},
            op: { type: 'string' },
            predicted: {},
            observed: { type: ['string', 'null'] },
            confidence: nullableNumber,
          },
        },
      },
      flags: {
        type: 'object',
        required: ['perfunctory', 'declined_while_queryable', 'repeated'],
        properties: { perfunctory: flag, declined_while_queryable: flag, repeated: flag },
      },
    },
  },
  ReplayRequest: {
    type: 'object',
    required: ['policy'],
    additionalProperties: false,
    properties: {
      policy: {
        type: 'string',
        minLength: 1,
        description: 'A rule file (YAML or JSON text) replacing the configured ones; builtin:files stays',
      },
      since: { type: ['string', 'integer'], description: 'ISO 8601 date-time or epoch milliseconds' },
      until: { type: ['string', 'integer'], description: 'ISO 8601 date-time or epoch milliseconds' },
      limit: {
        type: 'integer',
        minimum: 0,
        maximum: 1000,
        description: 'Example rows per change (default 50)',
      },
    },
  },
  ReplayResult: {
    type: 'object',
    description: 'tollgate.replay/v1 — `tollgate audit replay --json` prints the same document.',
    required: [
      'schema',
      'window',
      'calls',
      'skipped',
      'unchanged',
      'newly_gated',
      'no_longer_gated',
      'rules_changed',
      'by_rule',
    ],
    properties: {
      schema: { const: 'tollgate.replay/v1' },
      window: { type: 'object' },
      calls: count,
      skipped: count,
      unchanged: count,
      newly_gated: { $ref: '#/$defs/change' },
      no_longer_gated: { $ref: '#/$defs/change' },
      rules_changed: { $ref: '#/$defs/change' },
      by_rule: {
        type: 'object',
        additionalProperties: {
          type: 'object',
          properties: {
            matched_more: count,
            matched_fewer: count,
            newly_gated: count,
            no_longer_gated: count,
          },
        },
      },
    },
    $defs: {
      change: {
        type: 'object',
        required: ['count', 'rows'],
        properties: {
          count,
          rows: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                audit_id: { type: 'string' },
                at: { type: 'string' },
                session: { type: 'string' },
                agent: { type: ['string', 'null'] },
                tool: { type: 'string' },
                outcome: { type: ['string', 'null'] },
                class_before: { type: ['string', 'null'] },
                class_after: { type: 'string' },
                rules_before: { type: 'array', items: { type: 'string' } },
                rules_after: { type: 'array', items: { type: 'string' } },
              },
            },
          },
        },
      },
    },
  },
};
