// gateTools: an AI SDK ToolSet behind the gate. Each tool with an execute function runs through
// core's guard: a gated call without an envelope gets the rails as its result, a decline is recorded
// and nothing runs, a read's output is recorded as an observation the model can cite, and a dispatch
// is settled with its claim subjects re-read through the read tools of the same set.
import type { Call } from '@tollgate/contracts';
import {
  classifyTool,
  envelopeArg,
  type Gate,
  type GuardOptions,
  gatedToolNote,
  isGated,
  SHELL_TOOL,
  splitToolArgs,
  type ToolHints,
} from '@tollgate/core';
import type { Tool, ToolExecutionOptions, ToolSet } from 'ai';
import { withTollgateArg } from './input-schema.js';
import { invalidReply, isTollgateReply, verdictReply } from './replies.js';

type ModelOutput = Awaited<ReturnType<NonNullable<Tool['toModelOutput']>>>;

export interface GateToolsOptions {
  gate: Gate;
  /** The session the calls belong to: reads count as evidence only within it. */
  session: string;
  agent?: string;
  /** Hints for tools no rule names (give createGate the same function as toolHints). */
  hints?: (tool: string) => ToolHints | undefined;
  /** Summarises a dispatched result for its audit row. */
  summarise?: GuardOptions['summarise'];
  /** The text a result is recorded as (default: a string as is, else its JSON). */
  resultText?: GuardOptions['resultText'];
}

export function gateTools<TOOLS extends ToolSet>(tools: TOOLS, options: GateToolsOptions): TOOLS {
  const gated: Record<string, unknown> = {};
  for (const [name, tool] of Object.entries(tools))
    gated[name] = gateTool(name, tool as Tool, options, tools);
  return gated as TOOLS;
}

/**
 * One tool behind the gate. `siblings` are the tools whose reads can re-read a claim subject after a
 * dispatch (default: none, so claims about them stay unverifiable).
 */
export function gateTool<T extends Tool>(
  name: string,
  tool: T,
  options: GateToolsOptions,
  siblings: ToolSet = {},
): T {
  // Only a tool with no local execute runs elsewhere (at the provider): there is nothing to hold here.
  // A provider tool with an app-supplied execute (a provider's bash or editor tool) runs here, so it
  // is checked like any other.
  if (typeof tool.execute !== 'function') return tool;
  const execute = tool.execute as (input: unknown, o: ToolExecutionOptions) => unknown;
  // A provider-defined schema is the provider's: it gets no envelope argument and no note.
  const provider = tool.type === 'provider';
  const shellLike = provider && isShellProviderTool(tool.id);
  const hints = options.hints?.(name);
  const classification = classifyTool(options.gate.policy, name, hints);
  const gatedTool = isGated(classification.class);
  const guardOptions: GuardOptions = {
    // The model answers through a tool argument, as through the MCP proxy, so the rails say so.
    check: { channel: 'mcp', ...(hints !== undefined ? { hints } : {}) },
    observe: observer(options, siblings),
    ...(options.summarise ? { summarise: options.summarise } : {}),
    ...(options.resultText ? { resultText: options.resultText } : {}),
  };
  const wrapped = {
    ...tool,
    ...(gatedTool && !provider
      ? {
          description: [tool.description?.trimEnd(), gatedToolNote(classification)]
            .filter(Boolean)
            .join('\n\n'),
          inputSchema: withTollgateArg(tool.inputSchema),
        }
      : {}),
    execute: async (input: unknown, execOptions: ToolExecutionOptions) => {
      // A tool whose input is not an object is checked on {input}, so the gate judges what will run.
      const { args, raw } = isRecord(input) ? splitToolArgs(input) : { args: { input }, raw: undefined };
      const envelope = envelopeArg(raw);
      if (!envelope.ok) return invalidReply(envelope.message);
      // A shell-like provider tool called with {command} alone is the shell tool on that command.
      const asShell = shellLike && isShellInput(args);
      const callHints = asShell ? options.hints?.(SHELL_TOOL) : hints;
      const call: Call = {
        tool: asShell ? SHELL_TOOL : name,
        args,
        session: options.session,
        ...(options.agent !== undefined ? { agent: options.agent } : {}),
      };
      const run = options.gate.guard(
        () => finalValue(execute(isRecord(input) ? args : input, execOptions)),
        asShell
          ? {
              ...guardOptions,
              check: { channel: 'mcp', ...(callHints !== undefined ? { hints: callHints } : {}) },
            }
          : guardOptions,
      );
      const result = await run(call, envelope.envelope);
      if (!result.dispatched) return verdictReply(result.verdict, name);
      if ('error' in result) throw result.error;
      return result.result;
    },
    toModelOutput: async (o: {
      toolCallId: string;
      input: unknown;
      output: unknown;
    }): Promise<ModelOutput> => {
      if (isTollgateReply(o.output))
        return {
          type: o.output.tollgate.outcome === 'declined' ? 'text' : 'error-text',
          value: o.output.text,
        };
      if (tool.toModelOutput) return tool.toModelOutput(o as never);
      // The SDK's own default for a tool without toModelOutput.
      return typeof o.output === 'string'
        ? { type: 'text', value: o.output }
        : { type: 'json', value: (o.output === undefined ? null : o.output) as never };
    },
  };
  return wrapped as unknown as T;
}

/** Re-reads a claim subject through a read tool of the set (never through a tool that changes state). */
function observer(options: GateToolsOptions, siblings: ToolSet): NonNullable<GuardOptions['observe']> {
  return async (subject) => {
    // A command line is re-read through the set's shell tool, as a call {command}.
    const tool = typeof subject === 'string' ? SHELL_TOOL : subject.tool;
    const args = typeof subject === 'string' ? { command: subject } : (subject.args ?? {});
    const read = siblings[tool] as Tool | undefined;
    if (read?.type === 'provider' || typeof read?.execute !== 'function') return undefined;
    const cls = options.gate.classify({ tool, args }, options.hints?.(tool)).class;
    if (cls !== 'read-only') return undefined;
    const execute = read.execute as (input: unknown, o: ToolExecutionOptions) => unknown;
    const output = await finalValue(execute(args, { toolCallId: 'tollgate-probe', messages: [] }));
    return { output: typeof output === 'string' ? output : (JSON.stringify(output) ?? '') };
  };
}

// Provider tools whose input is {command}, a command line the app's execute runs in a shell
// (Anthropic's bash tools: anthropic.bash_20241022, anthropic.bash_20250124, ...).
const SHELL_PROVIDER_TOOL = /^anthropic\.bash_\d+$/;

function isShellProviderTool(id: unknown): boolean {
  return typeof id === 'string' && SHELL_PROVIDER_TOOL.test(id);
}

/** Input that is exactly {command: string}: what runs is that command line and nothing else. */
function isShellInput(args: Record<string, unknown>): args is { command: string } {
  const keys = Object.keys(args);
  return keys.length === 1 && keys[0] === 'command' && typeof args.command === 'string';
}

/** A streaming execute yields preliminary results; the last one is the result (as the SDK has it). */
async function finalValue(value: unknown): Promise<unknown> {
  const settled = await value;
  if (settled === null || typeof settled !== 'object' || !(Symbol.asyncIterator in settled)) return settled;
  let last: unknown;
  for await (const part of settled as AsyncIterable<unknown>) last = part;
  return last;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
