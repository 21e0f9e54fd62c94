// The routes of the OpenAPI document: each with its request shape, its answers, and the problem
// statuses it can return. Schemas are named, never inlined copies of a contract.
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (s: unknown) => ({ 'application/json': { schema: s } });
const ok = (description: string, s: unknown) => ({ description, content: json(s) });
const problem = (description: string) => ({
  description,
  content: { 'application/problem+json': { schema: schema('Problem') } },
});
const body = (name: string) => ({ required: true, content: json(schema(name)) });

const AUTH = {
  '401': problem('No valid bearer token'),
  '403': problem('Another agent, a session outside the token, or not an operator'),
};
const BODY = {
  '400': problem('Malformed JSON (with its position), invalid UTF-8, or nested too deep'),
  '413': problem('Body over the size limit (1 MB by default)'),
  '415': problem('Content-Type is not application/json'),
  '422': problem('The body does not have the shape of this route'),
};
const ID = { '400': problem('The id is not a ULID'), '404': problem('No such row (or not yours)') };

const query = (name: string, description: string, type: string, extra: object = {}) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type, ...extra },
});
const auditQuery = [
  query('session', 'Only rows of this session', 'string'),
  query('since', 'Rows at or after this ISO 8601 date-time or epoch milliseconds', 'string'),
  query('agent', 'Operators: only rows of this agent', 'string'),
];
const idParam = (name: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: '^[0-9A-HJKMNP-TV-Z]{26}$' },
});

export function openApiPaths(): Record<string, unknown> {
  return {
    '/v1/check': {
      post: {
        summary:
          'Decide one call: pass, dispatch, declined, or rejected with rails (always 200: a verdict is not an error)',
        requestBody: body('CheckRequest'),
        responses: { '200': ok('The verdict', schema('Verdict')), ...BODY, ...AUTH },
      },
    },
    '/v1/observations': {
      post: {
        summary: 'Record a read the client made (stored with attested: false)',
        requestBody: body('ObservationInput'),
        responses: { '201': ok('The ledger entry', schema('Observation')), ...BODY, ...AUTH },
      },
    },
    '/v1/predictions': {
      post: {
        summary: 'File a prediction for a call ahead of it; checked now and again when the call arrives',
        requestBody: body('PredictionRequest'),
        responses: {
          '200': ok('The call is not gated; nothing was filed', schema('TicketRecorded')),
          '201': ok('Filed', schema('TicketRecorded')),
          '409': problem('Bound to another call, or already used'),
          ...BODY,
          ...AUTH,
          '503': problem('gate_unavailable'),
        },
      },
    },
    '/v1/declines': {
      post: {
        summary: 'File a decline for a call ahead of it',
        requestBody: body('DeclineRequest'),
        responses: {
          '200': ok('The call is not gated; nothing was filed', schema('TicketRecorded')),
          '201': ok('Filed', schema('TicketRecorded')),
          '409': problem('Bound to another call'),
          ...BODY,
          ...AUTH,
        },
      },
    },
    '/v1/calls/{audit_id}/outcome': {
      post: {
        summary: 'Report the result of a dispatched call and the observed values of its claim subjects',
        parameters: [idParam('audit_id')],
        requestBody: body('Outcome'),
        responses: {
          '201': ok('The outcome row and claim results', schema('OutcomeRecorded')),
          ...BODY,
          ...ID,
          ...AUTH,
        },
      },
    },
    '/v1/audit': {
      get: {
        summary: 'Audit rows, oldest first (agents: their own; operators: all)',
        parameters: [query('limit', 'Newest N rows (1–1000, default 100)', 'integer'), ...auditQuery],
        responses: {
          '200': ok('Rows', { type: 'array', items: schema('AuditRow') }),
          '422': problem('Bad query'),
          ...AUTH,
        },
      },
    },
    '/v1/audit/verify': {
      get: {
        summary: 'Walk the hash chain (operators)',
        responses: { '200': ok('Chain status', schema('ChainCheck')), ...AUTH },
      },
    },
    '/v1/audit/{id}': {
      get: {
        summary: 'One decision merged with its outcome rows and claim results',
        parameters: [idParam('id')],
        responses: { '200': ok('The decision', schema('AuditView')), ...ID, ...AUTH },
      },
    },
    '/v1/audit/replay': {
      post: {
        summary:
          'What-if (operators): the recorded calls classified again under another rule file, and which decisions would change',
        requestBody: body('ReplayRequest'),
        responses: {
          '200': ok('What would change', schema('ReplayResult')),
          ...BODY,
          '422': problem('Bad body, or a rule file that does not compile (code policy_invalid)'),
          ...AUTH,
        },
      },
    },
    '/v1/report': {
      get: {
        summary:
          'Calibration report, aggregated in the database over a window: outcome mix and rates per agent, rule and day, prediction accuracy and Brier score, mismatches, latencies, rules, flags',
        parameters: [
          ...auditQuery,
          query('until', 'Rows before this ISO 8601 date-time or epoch milliseconds', 'string'),
          query('rule', 'Only decisions this rule matched', 'string'),
          query('tool', 'Only calls of this tool', 'string'),
          query('by', 'Adds `groups` by this dimension', 'string', {
            enum: ['agent', 'rule', 'tool', 'session', 'day'],
          }),
          query('limit', 'Mismatches and flagged rows listed (0–200, default 20)', 'integer'),
        ],
        responses: {
          '200': ok('The report', schema('CalibrationReport')),
          '422': problem('Bad query'),
          ...AUTH,
        },
      },
    },
    '/v1/rules': {
      get: { summary: 'The loaded rules', responses: { '200': ok('Rules', schema('Rules')), ...AUTH } },
    },
    '/v1/overrides': {
      post: {
        summary: 'Operator override: scoped (session, rule or call digest), expiring, audited',
        requestBody: body('OverrideRequest'),
        responses: { '201': ok('The override', schema('Override')), ...BODY, ...AUTH },
      },
    },
    '/v1/reviews': {
      get: {
        summary:
          'Review requests, newest first (operators: all; an agent: its own requests in its own sessions, as ReviewAgentView)',
        parameters: [
          query('status', 'Only requests stored with this status', 'string', {
            enum: ['pending', 'approved', 'denied'],
          }),
          query('session', 'Only requests of this session', 'string'),
          query('agent', 'Operators: only requests of this agent', 'string'),
          query('limit', 'Newest N requests (1–500, default 50)', 'integer'),
        ],
        responses: {
          '200': ok('Requests (Review for operators, ReviewAgentView for an agent)', {
            type: 'array',
            items: { oneOf: [schema('Review'), schema('ReviewAgentView')] },
          }),
          '422': problem('Bad query'),
          ...AUTH,
        },
      },
    },
    '/v1/reviews/{id}': {
      get: {
        summary:
          'One review request: the whole request for operators; for the agent whose call waits, its state (poll this until approved or denied, then retry the call)',
        parameters: [idParam('id')],
        responses: {
          '200': ok('The request', { oneOf: [schema('Review'), schema('ReviewAgentView')] }),
          ...ID,
          ...AUTH,
        },
      },
    },
    ...answerRoutes(),
    '/v1/hooks/claude-code': {
      post: {
        summary:
          "Claude Code's `http` hook: PreToolUse decides, PostToolUse records reads (same translation as `tollgate hook claude-code`); reads are attested only for a token with hook: true",
        requestBody: body('ClaudeCodeHookInput'),
        responses: { '200': ok('Hook output', schema('ClaudeCodeHookOutput')), ...BODY, ...AUTH },
      },
    },
    ...Object.fromEntries(
      [
        ['codex', 'Codex'],
        ['gemini', 'Gemini CLI'],
        ['cursor', 'Cursor'],
        ['copilot', 'Copilot CLI'],
      ].map(([host, label]) => [
        `/v1/hooks/${host}`,
        {
          post: {
            summary: `${label}'s hook event, posted by a command hook that curls it: answered in ${label}'s own shape, always 200 (same translation as \`tollgate hook ${host}\`); reads are attested only for a token with hook: true`,
            requestBody: body('HostHookInput'),
            responses: { '200': ok('Hook output', schema('HostHookOutput')), ...BODY, ...AUTH },
          },
        },
      ]),
    ),
    '/healthz': {
      get: {
        summary: 'Asks the store',
        security: [{}],
        responses: {
          '200': ok('Healthy', schema('Health')),
          '503': ok('The store cannot serve', schema('Health')),
        },
      },
    },
    '/metrics': {
      get: {
        summary: 'Prometheus metrics',
        security: [{}],
        responses: {
          '200': {
            description: 'Prometheus text format',
            content: { 'text/plain': { schema: { type: 'string' } } },
          },
        },
      },
    },
    '/openapi.json': {
      get: {
        summary: 'This document',
        security: [{}],
        responses: { '200': ok('OpenAPI 3.1', { type: 'object' }) },
      },
    },
    '/': {
      get: {
        summary: 'Dashboard: recent decisions, calibration, chain status',
        security: [{}],
        responses: {
          '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
        },
      },
    },
  };
}

/** POST /v1/reviews/{id}/approve and /deny: one answer per request, operator tokens only, audited. */
function answerRoutes(): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const [action, effect] of [
    ['approve', 'the same call, in the same session, passes once within an hour'],
    ['deny', 'final for this request'],
  ] as const) {
    routes[`/v1/reviews/{id}/${action}`] = {
      post: {
        summary: `Answer a pending review (${action}: ${effect}); operator tokens only, never the token that made the call; audited as a row of kind review with the person and reason`,
        parameters: [idParam('id')],
        requestBody: body('ReviewAnswerRequest'),
        responses: {
          '200': ok('The answered request and its audit row', schema('ReviewAnswered')),
          '409': problem('Already answered, or expired (code conflict)'),
          ...BODY,
          ...ID,
          ...AUTH,
        },
      },
    };
  }
  return routes;
}
