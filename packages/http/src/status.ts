// Reason codes and local faults → HTTP status, through exhaustive tables: a new code in core without
// a status here does not compile.
import type { FaultCode, ReasonCode } from '@tollgate/core';

/** The status of a request refused for this reason (ticket filing; a verdict itself is always 200). */
export const REASON_STATUS: Record<ReasonCode, number> = {
  schema_invalid: 422,
  prediction_missing: 422,
  evidence_not_observed: 422,
  evidence_stale: 422,
  evidence_not_attested: 422,
  quote_not_in_observation: 422,
  directive_is_not_evidence: 422,
  claim_not_falsifiable: 422,
  bound_to_other_call: 409,
  prediction_already_used: 409,
  decline_without_attempts: 422,
  attempt_not_observed: 422,
  gate_unavailable: 503,
  deny_ceiling_reached: 429,
  override_applied: 200,
  dynamic_command: 422,
  evidence_not_accepted: 422,
  evidence_required_missing: 422,
  quote_not_informative: 422,
  operator_required: 403,
  precondition_unmet: 422,
  review_required: 403,
  review_approved: 200,
};

export const FAULT_STATUS: Record<FaultCode, number> = {
  policy_invalid: 500,
  policy_unreadable: 500,
  config_invalid: 500,
  input_too_large: 413,
  input_invalid_utf8: 400,
  input_malformed_json: 400,
  input_invalid: 422,
  input_too_deep: 400,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 429,
  store_unavailable: 503,
};

/** One status for a list of reasons: the most serious (server trouble beats conflicts beats content). */
export function statusForReasons(codes: readonly ReasonCode[]): number {
  const worst = Math.max(0, ...codes.map((code) => REASON_STATUS[code]));
  return worst >= 400 ? worst : 422;
}

/** A problem title per fault code (core's faults carry messages, not titles). */
export const FAULT_TITLE: Record<FaultCode, string> = {
  policy_invalid: 'The policy could not be compiled.',
  policy_unreadable: 'The policy could not be read.',
  config_invalid: 'The configuration is invalid.',
  input_too_large: 'The body is larger than the limit.',
  input_invalid_utf8: 'The body is not valid UTF-8.',
  input_malformed_json: 'The body is not valid JSON.',
  input_invalid: 'The document does not have the shape it needs.',
  input_too_deep: 'The body nests deeper than the limit.',
  not_found: 'No such row.',
  conflict: 'The request contradicts what is already recorded.',
  limit_exceeded: 'A configured limit (limits.* in the config) refuses this request.',
  store_unavailable: 'The store cannot serve.',
};
