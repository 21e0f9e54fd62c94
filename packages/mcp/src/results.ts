// Tool results the proxy writes itself. Refusals are successful JSON-RPC results with isError, so the
// model reads them (hosts drop JSON-RPC error data); the first text block is for the model, the
// second is the same facts as JSON for programs. A refusal never carries structuredContent: a client
// would check it against the tool's output schema and throw instead of showing the text. This is the
// proxy's boundary toward the model: every text passes core's outgoing sanitiser, every JSON block is
// escaped (it still parses to the same facts), and names and messages sit on one line each.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SchemaProblem, Verdict } from '@tollgate/contracts';
import {
  declineText,
  escapedJson,
  refusalText,
  replyFacts,
  sanitiseOutgoing,
  sanitiseText,
} from '@tollgate/core';
import type { ProxyErrorCode } from './errors.js';

function machine(facts: Record<string, unknown>): { type: 'text'; text: string } {
  return { type: 'text', text: escapedJson({ tollgate: facts }) };
}

/** A text block for the model: the one sanitiser every proxy-written text leaves through. */
export function modelText(text: string): { type: 'text'; text: string } {
  return { type: 'text', text: sanitiseOutgoing(text) };
}

export function refusedResult(verdict: Verdict): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: refusalText(verdict) }, machine(replyFacts(verdict))],
  };
}

export function declinedResult(verdict: Verdict, tool: string, structured: boolean): CallToolResult {
  const facts = replyFacts(verdict);
  return {
    content: [{ type: 'text', text: declineText(verdict, tool) }, machine(facts)],
    // Only for tools with an output schema, which the proxy widened to admit exactly this record.
    ...(structured ? { structuredContent: { tollgate: facts } } : {}),
  };
}

export function errorResult(
  code: ProxyErrorCode,
  message: string,
  extra: { problems?: SchemaProblem[]; audit_id?: string } = {},
): CallToolResult {
  // The message and each problem are one line: a name or an upstream's message cannot add lines.
  const lines = [
    sanitiseText(message, 2000),
    ...(extra.problems ?? []).map(
      (p) => `  - ${sanitiseText(p.message, 400)}${p.path ? ` (at ${sanitiseText(p.path, 200)})` : ''}`,
    ),
  ];
  return {
    isError: true,
    content: [modelText(lines.join('\n')), machine({ error: code, ...extra })],
  };
}
