// What the model reads when a tool call it made is refused or declined, wherever it speaks through
// tool calls (the MCP proxy, the agent-framework adapters): the rails, or a recorded decline. Each
// text leaves through the outgoing sanitiser; the facts beside it are for programs.
import type { Verdict } from '@tollgate/contracts';
import { sanitiseOutgoing, sanitiseText } from './sanitise.js';

/** The rails of a refused call (or, without rails, each reason on its own line). */
export function refusalText(verdict: Verdict): string {
  return sanitiseOutgoing(
    verdict.rails?.text ??
      [
        'Tollgate refused this call:',
        ...verdict.reasons.map((r) => `  - [${r.code}] ${sanitiseText(r.message, 600)}`),
      ].join('\n'),
  );
}

/** A recorded decline: nothing ran, and that is a valid answer. */
export function declineText(verdict: Verdict, tool: string): string {
  return sanitiseOutgoing(
    `Tollgate recorded your decline (audit ${verdict.audit_id ?? ''}). ${sanitiseText(tool, 200)} was not called and nothing changed. Declining is a valid answer; if you later make the reads your decline names, you may call again with a prediction.`,
  );
}

/** The facts of a refusal or a decline, as programs read them. */
export function replyFacts(verdict: Verdict): Record<string, unknown> {
  if (verdict.outcome === 'declined')
    return {
      outcome: 'declined',
      audit_id: verdict.audit_id ?? '',
      ...(verdict.decline_id ? { decline_id: verdict.decline_id } : {}),
    };
  return {
    outcome: verdict.outcome,
    audit_id: verdict.audit_id,
    rules: verdict.rules,
    reasons: verdict.reasons,
    ...(verdict.escalation ? { escalation: verdict.escalation } : {}),
    // A person decides this call (review_required): the request to wait on.
    ...(verdict.review_id ? { review_id: verdict.review_id } : {}),
  };
}
