// Builds the audit row for a decision from the verdict and what the decision saw. Large arguments
// are bounded so one huge call cannot bloat the chain; the digest still names the exact call.
import type { AuditRow, Call, Decline, Prediction, Verdict } from '@tollgate/contracts';
import { canonicalJson } from './canonical.js';
import type { Decision } from './decide.js';
import type { AuditDraft } from './ports.js';

const MAX_CALL_JSON = 16 * 1024;

export interface DraftInput {
  id: string;
  at: number;
  call: Pick<Call, 'tool' | 'action' | 'args' | 'session' | 'agent' | 'directive' | 'host_ref'>;
  verdict: Verdict;
  decision?: Decision;
  dryRun?: boolean;
  /** The canonical JSON of {tool, action, args}, when the caller already has it. */
  callJson?: string;
}

export function auditDraftFor({ id, at, call, verdict, decision, dryRun, callJson }: DraftInput): AuditDraft {
  const row: AuditDraft = {
    id,
    at: new Date(at).toISOString(),
    kind: 'decision',
    session: call.session,
    tool: call.tool,
    call_digest: verdict.call_digest,
    call: callForAudit(call, callJson),
    class: verdict.class,
    rules: verdict.rules,
    mode: verdict.mode,
    outcome: verdict.outcome,
    would_reject: verdict.would_reject,
    reasons: verdict.reasons.map((r) => r.code),
  };
  if (call.agent !== undefined) row.agent = call.agent;
  if (call.host_ref !== undefined) row.host_ref = call.host_ref;
  if (call.action !== undefined) row.action = call.action;
  if (verdict.segment !== undefined) row.segment = verdict.segment;
  if (dryRun) row.dry_run = true;
  if (verdict.escalation !== undefined) row.escalation = verdict.escalation;
  if (verdict.prediction_id !== undefined) row.prediction_id = verdict.prediction_id;
  if (verdict.override !== undefined) row.override_id = verdict.override;
  if (decision?.reviewId !== undefined) row.review_id = decision.reviewId;
  // decide() hands over a document only when it is well-formed; a malformed one is described by the reasons.
  if (decision?.prediction !== undefined) row.prediction = decision.prediction as Prediction;
  if (decision?.decline !== undefined) row.decline = decision.decline as Decline;
  if (decision?.evidence !== undefined && decision.evidence.length > 0) row.evidence = decision.evidence;
  // Recorded on every decline, empty when the rules suggest no read: the report tells the two apart.
  if (decision?.suggestedReads !== undefined) row.suggested_reads = decision.suggestedReads;
  if (call.directive !== undefined) {
    row.directive = call.directive;
    const told = call.directive.at === undefined ? Number.NaN : Date.parse(call.directive.at);
    if (Number.isFinite(told)) row.directive_latency_ms = at - told;
  }
  return row;
}

// Parsed from the canonical text: a copy the caller cannot change after the fact.
function callForAudit(call: DraftInput['call'], callJson?: string): NonNullable<AuditRow['call']> {
  const json = callJson ?? canonicalJson({ tool: call.tool, action: call.action, args: call.args });
  if (json.length <= MAX_CALL_JSON) return JSON.parse(json) as NonNullable<AuditRow['call']>;
  return { tool: call.tool, truncated: true, bytes: json.length, preview: json.slice(0, 2048) };
}

/** A best-effort call shape from input that failed validation, for the audit row of its rejection. */
export function boundedCall(input: unknown, session: string): DraftInput['call'] {
  const obj = isObject(input) ? input : {};
  const tool = typeof obj.tool === 'string' ? obj.tool.slice(0, 256) : '(invalid)';
  let preview: string;
  try {
    preview = JSON.stringify(input)?.slice(0, 2048) ?? String(input);
  } catch {
    preview = '(unserialisable)';
  }
  return { tool, args: { invalid_input: preview }, session };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
