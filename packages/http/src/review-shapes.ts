// The wire shapes of the review routes (GET /v1/reviews, GET /v1/reviews/{id}, POST …/approve|deny):
// what a person sees of a request, what the agent whose call waits sees, and an answer's body.
const ref = (name: string, pointer = '') => ({ $ref: `urn:tollgate:${name}:v1${pointer}` });
const iso = { type: 'string', format: 'date-time' };
const state = {
  enum: ['pending', 'approved', 'denied', 'expired', 'used'],
  description:
    'pending: waits for a person; approved: the call may pass once; denied: final; expired: unanswered in time, or an approval not used in time; used: the approval let the call through.',
};
const call = {
  type: 'object',
  description: 'The call as the decision row keeps it: tool, action, args.',
};

const review = {
  type: 'object',
  description:
    'A review request as an operator sees it. Fields a newer store keeps (such as how a person was notified) pass through.',
  required: [
    'id',
    'session',
    'call_digest',
    'rule',
    'call',
    'approvers',
    'status',
    'state',
    'created_at',
    'expires_at',
  ],
  properties: {
    id: { type: 'string' },
    session: { type: 'string' },
    agent: { type: 'string' },
    call_digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    rule: { type: 'string', description: 'The rule that asked for review, or deny_ceiling.' },
    call,
    envelope: { description: 'The prediction or decline the call carried, as given.' },
    rails: { type: 'array', items: ref('reason'), description: "The refusal's reasons when it was filed." },
    approvers: { type: 'array', items: { type: 'string' } },
    status: { enum: ['pending', 'approved', 'denied'], description: 'As stored; `state` is what counts.' },
    state,
    created_at: iso,
    expires_at: {
      ...iso,
      description: 'Pending: when it expires into a refusal. Approved: when the approval lapses unused.',
    },
    answered_at: iso,
    answered_by: { type: 'string' },
    answer_reason: { type: 'string' },
    consumed_at: iso,
    notifications: {
      type: 'array',
      description:
        'How the request was announced (notify.webhooks of the config): one entry per webhook, named, never its URL or headers. next_at: due again (absent once delivered or given up).',
      items: {
        type: 'object',
        required: ['target', 'attempts'],
        properties: {
          target: { type: 'string' },
          attempts: { type: 'integer', minimum: 0 },
          next_at: iso,
          last_attempt_at: iso,
          last_error: { type: 'string' },
          delivered_at: iso,
        },
      },
    },
  },
};

export const reviewShapes = {
  Review: review,
  ReviewAgentView: {
    type: 'object',
    description: 'A review request as the agent whose call waits sees it (its own sessions only).',
    required: ['id', 'session', 'rule', 'call_digest', 'call', 'state', 'created_at', 'expires_at'],
    additionalProperties: false,
    properties: {
      id: { type: 'string' },
      session: { type: 'string' },
      rule: { type: 'string' },
      call_digest: { type: 'string' },
      call,
      state,
      created_at: iso,
      expires_at: iso,
      answered_at: iso,
      answer_reason: { type: 'string' },
    },
  },
  ReviewAnswerRequest: {
    type: 'object',
    required: ['reason'],
    additionalProperties: false,
    properties: {
      reason: { type: 'string', minLength: 1, maxLength: 1000, description: 'Why; kept on the audit row.' },
      operator: {
        type: 'string',
        minLength: 1,
        maxLength: 256,
        description:
          'The person answering, when the operator token is shared; recorded as "<operator> (token <agent>)".',
      },
    },
  },
  ReviewAnswered: {
    type: 'object',
    required: ['review', 'audit_id'],
    properties: {
      review,
      audit_id: { type: 'string', description: 'The audit row (kind review) that records the answer.' },
    },
  },
} as const;
