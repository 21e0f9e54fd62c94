// The HTTP-only shapes: request wrappers and responses that compose contract schemas by $ref (never
// restating them). The OpenAPI document publishes these; requests are checked against them shallowly
// (the contract documents inside are core's to validate, so a bad call still gets its audited verdict).
import { reportShapes } from './report-shapes.js';
import { reviewShapes } from './review-shapes.js';

const ref = (name: string, pointer = '') => ({ $ref: `urn:tollgate:${name}:v1${pointer}` });

export const httpShapes = {
  CheckRequest: {
    type: 'object',
    required: ['call'],
    additionalProperties: false,
    properties: {
      call: ref('call'),
      envelope: ref('envelope'),
      dry_run: { type: 'boolean', description: 'A dry look: validates but consumes nothing.' },
    },
  },
  PredictionRequest: {
    type: 'object',
    required: ['call', 'prediction'],
    additionalProperties: false,
    properties: { call: ref('call'), prediction: ref('prediction') },
  },
  DeclineRequest: {
    type: 'object',
    required: ['call', 'decline'],
    additionalProperties: false,
    properties: { call: ref('call'), decline: ref('decline') },
  },
  TicketRecorded: {
    type: 'object',
    required: ['ok', 'call_digest', 'gated', 'class', 'rules'],
    properties: {
      ok: { const: true },
      id: { type: 'string', description: 'Absent when the call is not gated (nothing to file).' },
      call_digest: { type: 'string' },
      gated: { type: 'boolean' },
      class: ref('verdict', '#/$defs/callClass'),
      rules: { type: 'array', items: { type: 'string' } },
    },
  },
  OutcomeRecorded: {
    type: 'object',
    required: ['row', 'claims'],
    properties: { row: ref('audit-row'), claims: ref('audit-row', '#/properties/claims') },
  },
  AuditView: {
    allOf: [ref('audit-row')],
    type: 'object',
    required: ['outcomes'],
    properties: {
      outcomes: { type: 'array', items: ref('audit-row') },
      result: ref('audit-row', '#/properties/result'),
      claims: ref('audit-row', '#/properties/claims'),
    },
  },
  OverrideRequest: {
    type: 'object',
    required: ['reason', 'ttl_s'],
    additionalProperties: false,
    anyOf: [{ required: ['session'] }, { required: ['rule'] }, { required: ['call_digest'] }],
    properties: {
      reason: { type: 'string', minLength: 1, maxLength: 1000 },
      ttl_s: { type: 'integer', minimum: 1, maximum: 604800 },
      session: { type: 'string', minLength: 1, maxLength: 256 },
      rule: { type: 'string', minLength: 1, maxLength: 256 },
      call_digest: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    },
  },
  Override: ref('audit-row', '#/properties/override'),
  ...reportShapes,
  ...reviewShapes,
  ChainCheck: {
    type: 'object',
    required: ['ok', 'rows'],
    properties: {
      ok: { type: 'boolean' },
      rows: { type: 'integer' },
      broken_at: {
        type: 'object',
        properties: { seq: { type: 'integer' }, id: { type: 'string' }, problem: { type: 'string' } },
      },
    },
  },
  Rules: {
    type: 'object',
    required: ['rules'],
    properties: { rules: { type: 'array', items: ref('policy', '#/$defs/rule') } },
  },
  Health: {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: ['ok', 'unavailable'] }, detail: { type: 'string' } },
  },
  ClaudeCodeHookInput: {
    type: 'object',
    description: "Claude Code's hook input (PreToolUse / PostToolUse), posted by its `http` hook type.",
    required: ['session_id', 'hook_event_name'],
    properties: {
      session_id: { type: 'string' },
      hook_event_name: { type: 'string' },
      tool_name: { type: 'string' },
      tool_input: { type: 'object' },
      tool_response: {},
      tool_use_id: { type: 'string' },
      cwd: { type: 'string' },
    },
  },
  ClaudeCodeHookOutput: {
    type: 'object',
    description:
      "Claude Code's hook output: hookSpecificOutput with a permissionDecision, or {} for no decision.",
  },
  HostHookInput: {
    type: 'object',
    description:
      'A host\'s own pre- or post-tool hook event, as its command hook receives it on stdin (Codex: Claude-shaped PreToolUse/PostToolUse; Gemini CLI: BeforeTool/AfterTool; Cursor: beforeShellExecution, beforeMCPExecution, preToolUse, afterShellExecution, afterMCPExecution, afterFileEdit, postToolUse; Copilot CLI: camelCase {sessionId, toolName, toolArgs, toolResult?}). See README "Other agent hosts".',
  },
  HostHookOutput: {
    type: 'object',
    description:
      "The host's own answer, always explicit (Codex: hookSpecificOutput.permissionDecision deny or {continue: true}; Gemini CLI: {decision, reason}; Cursor: {permission: deny, user_message, agent_message} or {continue: true}; Copilot CLI: {permissionDecision: deny, permissionDecisionReason} or {}).",
  },
  Problem: {
    type: 'object',
    description: 'RFC 9457 problem object (application/problem+json).',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { type: 'string', description: 'A reason code, a fault code, or an HTTP-layer code.' },
      reasons: { type: 'array', items: ref('reason') },
      problems: { type: 'array', items: { type: 'object' } },
      position: { type: 'integer', description: 'Malformed JSON: where parsing stopped.' },
      request_id: { type: 'string' },
    },
  },
} as const;

export type HttpShapeName = keyof typeof httpShapes;
