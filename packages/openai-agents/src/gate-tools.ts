// gateAgentTools: an agent's function tools behind the gate. Each gated tool lists the optional
// `tollgate` argument, carries the input guardrail that checks every call, and runs through a wrapper
// that takes the envelope off, runs only what the check let through (checking itself if the guardrail
// did not run), records a read's output as an observation and settles a dispatch's outcome, re-reading
// its claim subjects through the read tools of the same set.

import {
  type FunctionTool,
  getClientToolSearchExecutor,
  type RunContext,
  type Tool,
} from '@openai/agents-core';
import {
  classifyTool,
  declineText,
  dispatchChecked,
  type GuardOptions,
  gatedToolNote,
  isGated,
  refusalText,
  SHELL_TOOL,
  sanitiseOutgoing,
  withTollgateProperty,
} from '@tollgate/core';
import { tollgateInputGuardrail } from './guardrail.js';
import { type GateAgentToolsOptions, PendingChecks, sessionOf } from './options.js';
import { callOf, parseArguments, sameArgs } from './tool-call.js';

// biome-ignore lint/suspicious/noExplicitAny: any application's context, as the SDK's own tool types take it.
type AnyContext = any;
// biome-ignore lint/suspicious/noExplicitAny: a tool of any parameters and result (the SDK's AnyFunctionTool, unexported).
type AnyFunctionTool = FunctionTool<AnyContext, any, any>;
type ToolCallDetails = Parameters<AnyFunctionTool['invoke']>[2];

export function gateAgentTools<T extends Tool<AnyContext>>(tools: T[], options: GateAgentToolsOptions): T[] {
  // Fail closed at setup: a tool that runs locally outside a function tool's invoke cannot be held.
  for (const t of tools) {
    const reason = ungatable(t);
    if (reason !== undefined)
      throw new Error(`Tollgate: cannot gate the ${t.type} tool "${t.name}": ${reason}`);
  }
  const pending = new PendingChecks();
  const functions = tools.filter((t): t is T & AnyFunctionTool => t.type === 'function');
  return tools.map((t) =>
    t.type === 'function' ? (wrap(t as AnyFunctionTool, options, pending, functions) as T) : t,
  );
}

/**
 * Why a tool runs locally where the gate cannot interpose (undefined: it is a function tool, which is
 * wrapped, or it runs at the provider). The SDK executes shell, apply_patch and computer tools itself,
 * through the app's Shell, Editor or Computer, with no tool guardrail or invoke to wrap.
 */
function ungatable(tool: Tool<AnyContext>): string | undefined {
  switch (tool.type) {
    case 'function':
      return undefined;
    case 'hosted_tool':
      // A client-side tool search loads tools into the run later, where they would join it ungated.
      return getClientToolSearchExecutor(tool) === undefined
        ? undefined
        : 'its client-side tool search executor adds tools at run time, which would run ungated';
    case 'shell':
      // A hosted environment runs the commands at the provider; a local one runs them through the app's Shell.
      return tool.environment !== undefined && tool.environment.type !== 'local'
        ? undefined
        : "its commands run through the application's Shell, which the Agents SDK calls with no tool guardrail; give the agent a function tool that runs commands instead";
    case 'apply_patch':
      return "its patches are applied through the application's Editor, which the Agents SDK calls with no tool guardrail; give the agent a function tool that writes files instead";
    case 'computer':
      return "its actions run on the application's Computer, which the Agents SDK drives with no tool guardrail";
    default:
      return 'it is a tool type the gate does not know, so it cannot tell where it runs';
  }
}

/** One function tool behind the gate; `siblings` are the tools whose reads can re-read a claim subject. */
export function gateFunctionTool<T extends AnyFunctionTool>(
  tool: T,
  options: GateAgentToolsOptions,
  siblings: AnyFunctionTool[] = [],
): T {
  return wrap(tool, options, new PendingChecks(), siblings);
}

function wrap<T extends AnyFunctionTool>(
  tool: T,
  options: GateAgentToolsOptions,
  pending: PendingChecks,
  siblings: AnyFunctionTool[],
): T {
  const hints = options.hints?.(tool.name);
  const classification = classifyTool(options.gate.policy, tool.name, hints);
  const gated = isGated(classification.class);
  const invoke = async (runContext: RunContext<AnyContext>, input: string, details?: ToolCallDetails) => {
    const parsed = parseArguments(input);
    if (!parsed.ok) return sanitiseOutgoing(`Tollgate: ${parsed.message}`);
    const call = callOf(tool.name, parsed.args, sessionOf(options, runContext), options.agent);
    const callId = details?.toolCall?.callId;
    const held = pending.take(callId, call);
    // Only the check of this very call (call id, tool, session, arguments) counts; otherwise (the
    // guardrail did not run, or checked another call) check here.
    const verdict =
      held && held.call.tool === call.tool && sameArgs(held.call.args, call.args)
        ? held.verdict
        : await options.gate.check(call, {
            channel: 'mcp',
            ...(hints !== undefined ? { hints } : {}),
            ...(parsed.envelope !== undefined ? { envelope: parsed.envelope } : {}),
          });
    if (verdict.outcome === 'rejected') return refusalText(verdict);
    if (verdict.outcome === 'declined') return declineText(verdict, tool.name);
    const argsText = JSON.stringify(parsed.args);
    // The tool sees its own arguments only, in its call details too.
    const own = details?.toolCall
      ? { ...details, toolCall: { ...details.toolCall, arguments: argsText } }
      : details;
    const guardOptions: GuardOptions = {
      observe: observer(options, siblings, runContext),
      ...(options.summarise ? { summarise: options.summarise } : {}),
      ...(options.resultText ? { resultText: options.resultText } : {}),
    };
    const result = await dispatchChecked(
      options.gate,
      call,
      verdict,
      () => tool.invoke(runContext, argsText, own),
      guardOptions,
    );
    if ('error' in result) throw result.error;
    return result.result;
  };
  return {
    ...tool,
    ...(gated
      ? {
          description: [tool.description.trimEnd(), gatedToolNote(classification)]
            .filter(Boolean)
            .join('\n\n'),
          parameters: withTollgateProperty(tool.parameters) as AnyFunctionTool['parameters'],
          // Strict schemas must require every property; the envelope is optional, so not strict.
          strict: false,
        }
      : {}),
    inputGuardrails: [tollgateInputGuardrail(options, pending), ...(tool.inputGuardrails ?? [])],
    invoke,
  };
}

/** Re-reads a claim subject through a read tool of the set (never through a tool that changes state). */
function observer(
  options: GateAgentToolsOptions,
  siblings: AnyFunctionTool[],
  runContext: RunContext<AnyContext>,
): NonNullable<GuardOptions['observe']> {
  return async (subject) => {
    // A command line is re-read through the set's shell tool, as a call {command}.
    const tool = typeof subject === 'string' ? SHELL_TOOL : subject.tool;
    const args = typeof subject === 'string' ? { command: subject } : (subject.args ?? {});
    const read = siblings.find((t) => t.name === tool);
    if (!read) return undefined;
    if (options.gate.classify({ tool, args }, options.hints?.(tool)).class !== 'read-only') return undefined;
    const output = await read.invoke(runContext, JSON.stringify(args));
    return { output: typeof output === 'string' ? output : (JSON.stringify(output) ?? '') };
  };
}
