// The catalogue of wire reason codes: each one a stable, documented meaning. Adapters map these to
// exit codes, HTTP statuses and hook decisions through exhaustive Record<ReasonCode, …> tables.
import type { Reason } from '@tollgate/contracts';
import { sanitiseText } from './sanitise.js';

export type ReasonCode = Reason['code'];

export const REASONS: Record<ReasonCode, string> = {
  schema_invalid: 'The call or its envelope does not match its JSON Schema.',
  prediction_missing: 'An irreversible call arrived with neither a prediction nor a decline.',
  evidence_not_observed: 'Cited evidence names a read the gate never saw in this session.',
  evidence_stale: "Cited evidence is older than the rule's max_age_s.",
  evidence_not_attested:
    'Cited evidence was only posted by a client, and the rule wants reads the gate saw itself.',
  quote_not_in_observation: 'The quoted text does not occur in the recorded output of the cited read.',
  directive_is_not_evidence: 'The evidence rests on what the agent was told, not on what it read.',
  claim_not_falsifiable:
    'A claim could not turn out false (empty value, match-anything pattern, or a subject that is not a read).',
  bound_to_other_call: 'The prediction or decline was made for a different call (its digest differs).',
  prediction_already_used: 'The prediction or decline was already consumed; each is single-use.',
  decline_without_attempts: 'The decline lists no attempted observations, and the rule requires some.',
  attempt_not_observed: 'An attempted observation in the decline is not in the ledger.',
  gate_unavailable:
    'The gate could not decide (store or policy failure), so a possibly irreversible call is denied.',
  deny_ceiling_reached: 'This call was rejected too many times in this session; a human must look at it.',
  override_applied: 'An operator override let this call through; it is audited.',
  dynamic_command:
    'The command cannot be resolved statically (eval, substitution, code piped to a shell), so it is gated.',
  evidence_not_accepted:
    "The cited read is not one this rule accepts as evidence (another tool or program, an unrelated path, or output that is only the command's own words).",
  evidence_required_missing: 'The rule requires a read to be cited, and no evidence item cites one.',
  quote_not_informative:
    'The quote says nothing about the state: too short, punctuation alone, or text the call, the claim or the read itself carries.',
  operator_required:
    'Only an operator override lets this call through (it touches the gate itself or the host hooks); a prediction cannot.',
  precondition_unmet:
    "A rule's precondition does not hold yet in this session (a read or call it wants first, or a newer one); the rails name each one and how to satisfy it.",
  review_required:
    'A person must approve this call first: a review request was filed (its id is named), or one is pending, was denied or expired; a person answers with tollgate review approve (or deny) ID.',
  review_approved: 'A person approved this exact call once (a review); the approval is used up by this call.',
};

export function reasonMeaning(code: ReasonCode): string {
  return REASONS[code];
}

// Reasons carry text taken from the input (schema paths hold raw keys, messages quote values): both
// are sanitised where a reason is made, so nothing raw reaches a verdict.
const MESSAGE_CAP = 2000;
const PATH_CAP = 500;

export function reason(code: ReasonCode, message: string, path?: string): Reason {
  const clean = sanitiseText(message, MESSAGE_CAP);
  return path === undefined
    ? { code, message: clean }
    : { code, message: clean, path: sanitiseText(path, PATH_CAP) };
}
