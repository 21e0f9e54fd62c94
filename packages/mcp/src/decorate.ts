// How a tool looks to the client: gated tools gain the optional `tollgate` argument, one sentence in
// their description, and an output schema that also admits a recorded decline; every other tool, and
// every annotation, passes through exactly as the upstream listed it.

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { isGated, type ToolClassification } from '@tollgate/core';
import { TOLLGATE_ARG, tollgateProperty } from './tollgate-argument.js';

export const RULES_TOOL = 'tollgate_rules';

export function decorateTool(tool: Tool, classification: ToolClassification): Tool {
  if (!isGated(classification.class)) return tool;
  const decorated: Tool = {
    ...tool,
    description: [tool.description?.trimEnd(), contractSentence(classification)].filter(Boolean).join('\n\n'),
    inputSchema: {
      ...tool.inputSchema,
      properties: { ...(tool.inputSchema.properties ?? {}), [TOLLGATE_ARG]: tollgateProperty },
    },
  };
  if (tool.outputSchema) decorated.outputSchema = admitDecline(tool.outputSchema);
  return decorated;
}

function contractSentence(c: ToolClassification): string {
  const which = c.conditional ? 'Some calls of this tool are irreversible' : 'This tool is irreversible';
  return `Tollgate: ${which} (${c.rules.join(', ')}), so such a call needs a "${TOLLGATE_ARG}" argument — a prediction backed by reads you made through this server, or a decline — and without one it is refused with instructions; call ${RULES_TOOL} for details.`;
}

/** The shape of structuredContent in a declined call's result. */
export const declinedOutputSchema = {
  type: 'object',
  required: [TOLLGATE_ARG],
  properties: {
    [TOLLGATE_ARG]: {
      type: 'object',
      required: ['outcome', 'audit_id'],
      properties: {
        outcome: { const: 'declined' },
        audit_id: { type: 'string' },
        decline_id: { type: 'string' },
      },
    },
  },
};

// A declined call succeeds without running, so it has no upstream output; a client that checks
// structuredContent against the output schema (the SDK Client does) must accept the decline record.
// Root-level $defs stay at the root so the upstream's own "#/$defs/…" references still resolve.
function admitDecline(schema: NonNullable<Tool['outputSchema']>): NonNullable<Tool['outputSchema']> {
  const { $schema, $id, $defs, definitions, ...upstream } = schema as Record<string, unknown>;
  return {
    ...($schema !== undefined ? { $schema } : {}),
    ...($id !== undefined ? { $id } : {}),
    ...($defs !== undefined ? { $defs } : {}),
    ...(definitions !== undefined ? { definitions } : {}),
    type: 'object',
    anyOf: [upstream, declinedOutputSchema],
  } as NonNullable<Tool['outputSchema']>;
}
