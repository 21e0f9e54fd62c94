// tools/call, translated: find the tool, settle the session, check the arguments, ask the gate, and
// answer with the rails (rejected), a recorded decline (declined) or the forwarded call (pass,
// dispatch). Unknown tools are protocol errors; everything else is a tool result the model reads.

import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import {
  type CallToolRequest,
  type CallToolResult,
  ErrorCode,
  type ServerNotification,
  type ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { Call } from '@tollgate/contracts';
import { envelopeArg, quoted, sanitiseOutgoing, sanitiseText } from '@tollgate/core';
import { hintsOf } from './catalogue.js';
import type { ProxyContext } from './context.js';
import { RULES_TOOL } from './decorate.js';
import { recordMetaDirective } from './directive-meta.js';
import { ProtocolError } from './errors.js';
import { failureOf } from './failure.js';
import { forward } from './forward.js';
import { declinedResult, errorResult, refusedResult } from './results.js';
import { rulesResult } from './rules-tool.js';
import { resolveSession } from './session.js';
import { TOLLGATE_ARG } from './tollgate-argument.js';

export interface Caller {
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>;
  /** This downstream connection's id: the session of last resort. */
  connection: string;
  /** The client's name from initialize, recorded as the agent. */
  agent: string | undefined;
}

export async function handleCall(
  ctx: ProxyContext,
  req: CallToolRequest,
  caller: Caller,
): Promise<CallToolResult> {
  const { name } = req.params;
  if (name === RULES_TOOL) return rulesResult(ctx, req.params.arguments);
  let tool: Awaited<ReturnType<typeof ctx.catalogue.find>>;
  try {
    tool = await ctx.catalogue.find(name);
  } catch (error) {
    const failure = failureOf(error, ctx.callTimeoutMs, caller.extra.signal.aborted);
    return errorResult(
      'upstream_unavailable',
      `Tollgate: cannot reach the upstream to call ${quoted(name)}: ${failure.message}`,
    );
  }
  if (!tool) {
    // A protocol error the host may show the model: the same sanitiser as every result text.
    const known = [...ctx.catalogue.names(), RULES_TOOL].slice(0, 50).map((n) => sanitiseText(n, 128));
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      sanitiseOutgoing(`unknown tool ${quoted(name)}; this server has: ${known.join(', ')}`),
    );
  }
  const session = resolveSession({
    pinned: ctx.pinnedSession,
    meta: req.params._meta,
    transportSession: caller.extra.sessionId,
    connection: caller.connection,
  });
  if (!session.ok) return errorResult('invalid_session', `Tollgate: ${session.message}`);

  const { [TOLLGATE_ARG]: rawEnvelope, ...args } = req.params.arguments ?? {};
  const envelope = envelopeArg(rawEnvelope);
  if (!envelope.ok) return errorResult('invalid_arguments', `Tollgate: ${envelope.message}`);
  const checked = ctx.validator.check(tool, args);
  if (!checked.ok) {
    return errorResult(
      'invalid_arguments',
      `Tollgate: the arguments of ${quoted(name)} do not match its input schema:`,
      {
        problems: checked.problems,
      },
    );
  }

  const call: Call = {
    tool: name,
    args,
    session: session.session,
    ...(caller.agent ? { agent: caller.agent.slice(0, 256) } : {}),
  };
  const directive = await recordMetaDirective(ctx.gate, req.params._meta, call.session, call.agent);
  if (directive !== undefined) call.directive = directive;
  const verdict = await ctx.gate.check(call, {
    channel: 'mcp',
    hints: hintsOf(tool),
    ...(envelope.envelope !== undefined ? { envelope: envelope.envelope } : {}),
  });
  switch (verdict.outcome) {
    case 'rejected':
      return refusedResult(verdict);
    case 'declined':
      return declinedResult(verdict, name, tool.outputSchema !== undefined);
    case 'pass':
    case 'dispatch':
      return forward(ctx, {
        call,
        verdict,
        meta: req.params._meta,
        signal: caller.extra.signal,
        sendNotification: caller.extra.sendNotification,
      });
  }
}
