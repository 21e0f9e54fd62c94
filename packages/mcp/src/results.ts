// Tool results the proxy writes itself. Refusals are successful JSON-RPC results with isError, so the
// model reads them (hosts drop JSON-RPC error data); the first text block is for the model, the
// second is the same facts as JSON for programs. A refusal never carries structuredContent: a client
// would check it against the tool's output schema and throw instead of showing the text.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SchemaProblem, Verdict } from '@tollgate/contracts';
import type { ProxyErrorCode } from './errors.js';

function machine(facts: Record<string, unknown>): { type: 'text'; text: string } {
  return { type: 'text', text: JSON.stringify({ tollgate: facts }) };
}

export function refusedResult(verdict: Verdict): CallToolResult {
  const text =
    verdict.rails?.text ??
    ['Tollgate refused this call:', ...verdict.reasons.map((r) => `  - [${r.code}] ${r.message}`)].join('\n');
  return {
    isError: true,
    content: [
      { type: 'text', text },
      machine({
        outcome: 'rejected',
        audit_id: verdict.audit_id,
        rules: verdict.rules,
        reasons: verdict.reasons,
        ...(verdict.escalation ? { escalation: verdict.escalation } : {}),
      }),
    ],
  };
}

export function declinedResult(verdict: Verdict, tool: string, structured: boolean): CallToolResult {
  const facts = {
    outcome: 'declined' as const,
    audit_id: verdict.audit_id ?? '',
    ...(verdict.decline_id ? { decline_id: verdict.decline_id } : {}),
  };
  return {
    content: [
      {
        type: 'text',
        text: `Tollgate recorded your decline (audit ${facts.audit_id}). ${tool} was not called and nothing changed. Declining is a valid answer; if you later make the reads your decline names, you may call again with a prediction.`,
      },
      machine(facts),
    ],
    // Only for tools with an output schema, which the proxy widened to admit exactly this record.
    ...(structured ? { structuredContent: { tollgate: facts } } : {}),
  };
}

export function errorResult(
  code: ProxyErrorCode,
  message: string,
  extra: { problems?: SchemaProblem[]; audit_id?: string } = {},
): CallToolResult {
  const lines = [
    message,
    ...(extra.problems ?? []).map((p) => `  - ${p.message}${p.path ? ` (at ${p.path})` : ''}`),
  ];
  return {
    isError: true,
    content: [{ type: 'text', text: lines.join('\n') }, machine({ error: code, ...extra })],
  };
}
