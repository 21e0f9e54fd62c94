// The tool input guardrail: each function call is checked before its tool runs. A refusal reaches the
// model as the rails (rejectContent: the tool does not run, the run goes on), a decline as the record
// of it; a call the gate lets through waits, with its verdict, for the wrapped tool to run it.

import {
  defineToolInputGuardrail,
  ToolGuardrailFunctionOutputFactory as Output,
  type ToolInputGuardrailDefinition,
} from '@openai/agents-core';
import { declineText, refusalText, replyFacts, sanitiseOutgoing } from '@tollgate/core';
import { type GateAgentToolsOptions, type PendingChecks, sessionOf } from './options.js';
import { callOf, parseArguments, sameArgs } from './tool-call.js';

export const GUARDRAIL_NAME = 'tollgate';

export function tollgateInputGuardrail(
  options: GateAgentToolsOptions,
  pending: PendingChecks,
): ToolInputGuardrailDefinition<unknown> {
  return defineToolInputGuardrail<unknown>({
    name: GUARDRAIL_NAME,
    run: async ({ context, toolCall }) => {
      const parsed = parseArguments(toolCall.arguments);
      if (!parsed.ok)
        return Output.rejectContent(sanitiseOutgoing(`Tollgate: ${parsed.message}`), { outcome: 'invalid' });
      const call = callOf(toolCall.name, parsed.args, sessionOf(options, context), options.agent);
      // The runner asks again after a human approval: the call was checked already (and its
      // prediction consumed), so the first verdict stands.
      const held = pending.peek(toolCall.callId, call);
      if (held && held.call.tool === call.tool && sameArgs(held.call.args, call.args))
        return Output.allow(replyFacts(held.verdict));
      const hints = options.hints?.(toolCall.name);
      const verdict = await options.gate.check(call, {
        // The model answers through a tool argument, as through the MCP proxy, so the rails say so.
        channel: 'mcp',
        ...(hints !== undefined ? { hints } : {}),
        ...(parsed.envelope !== undefined ? { envelope: parsed.envelope } : {}),
      });
      if (verdict.outcome === 'rejected')
        return Output.rejectContent(refusalText(verdict), replyFacts(verdict));
      if (verdict.outcome === 'declined')
        return Output.rejectContent(declineText(verdict, toolCall.name), replyFacts(verdict));
      pending.put(toolCall.callId, { call, verdict });
      return Output.allow(replyFacts(verdict));
    },
  });
}
