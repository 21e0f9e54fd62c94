// GitHub Copilot CLI: preToolUse / postToolUse with camelCase input {sessionId, timestamp, cwd,
// toolName, toolArgs} where toolArgs may be a JSON string; postToolUse adds toolResult
// {resultType, textResultForLlm}. The event is hookEventName when given, else postToolUse exactly when
// a toolResult is present. An event spelled the Claude way (hook_event_name PreToolUse) carries the
// snake_case Claude shape. Tools are bash, edit, create, view, ... mapped to the canonical names. It
// answers {permissionDecision: "allow"|"deny"|"ask", permissionDecisionReason}; a pass is {} (no
// decision, so Copilot's own approvals still decide; an "allow" could skip them). Copilot gives no
// tool-call id, so a post event pairs with nothing and its read is recorded unattested.
// userPromptSubmitted {sessionId, cwd, prompt} and sessionStart {sessionId, cwd, source} are Claude
// Code's UserPromptSubmit and SessionStart (the prompt is recorded as the session's directive); a
// document naming no event is taken for them when it carries a prompt, or a source, and no tool.
// Copilot ignores what userPromptSubmitted answers and reads sessionStart's additionalContext, so
// neither ever blocks.
import type { HostAdapter, HostAnswer, HostParse, ShapedDecision } from '../host.js';
import { forModel } from '../host.js';
import type { HookEvent, HookInput } from '../input.js';
import {
  argsObject,
  BadArgs,
  claudeInput,
  defined,
  hostAdapter,
  hostHead,
  idOf,
  isObj,
  keystrokeCommand,
  mapTool,
  type Obj,
  only,
  SESSION_KINDS,
  sessionInput,
  type ToolMap,
} from './canonical.js';

const EVENTS: Record<string, HookEvent> = {
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  PostToolUseFailure: 'PostToolUseFailure',
  userPromptSubmitted: 'UserPromptSubmit',
  sessionStart: 'SessionStart',
  UserPromptSubmit: 'UserPromptSubmit',
  SessionStart: 'SessionStart',
};
const PRE = new Set(['preToolUse', 'PreToolUse']);

export const copilot: HostAdapter = hostAdapter('copilot', 'Copilot CLI', 'bash', Object.keys(EVENTS), {
  parse: parseCopilot,
  shape: shapeCopilot,
});

/** Copilot's tools → canonical (a name not listed stays itself). */
const TOOLS: ToolMap = {
  bash: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  shell: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  // Text typed into a live bash session the agent started (read_bash / stop_bash write nothing).
  write_bash: (a) => ({ tool: 'Bash', args: defined({ command: typed(a.input) }) }),
  create: (a) => ({
    tool: 'Write',
    args: defined({ file_path: only(a, 'path', 'file_path'), content: a.file_text ?? a.content }),
  }),
  edit: (a) => ({
    tool: 'Edit',
    args: defined({
      file_path: only(a, 'path', 'file_path'),
      old_string: a.old_str ?? a.old_string,
      new_string: a.new_str ?? a.new_string,
    }),
  }),
  view: (a) => ({ tool: 'Read', args: defined({ file_path: only(a, 'path', 'file_path') }) }),
  grep: (a) => ({ tool: 'Grep', args: a }),
  glob: (a) => ({ tool: 'Glob', args: a }),
  web_fetch: (a) => ({ tool: 'WebFetch', args: a }),
};

/** What write_bash types, as the shell line it makes (keys that edit the line are bad input). */
function typed(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const line = keystrokeCommand(text);
  if ('problem' in line) throw new BadArgs(line.problem);
  return line.command;
}

export function parseCopilot(raw: unknown): HostParse {
  if (!isObj(raw)) return { ok: false, problem: 'hook input is not a JSON object' };
  if (typeof raw.hook_event_name === 'string') return claudeShaped(raw);
  const head = hostHead(
    { ...raw, hookEventName: typeof raw.hookEventName === 'string' ? raw.hookEventName : impliedEvent(raw) },
    { events: EVENTS, label: 'Copilot CLI', eventKey: 'hookEventName', sessionKeys: ['sessionId'] },
  );
  if (!head.ok) return head;
  const { doc, event, canonical: base, session } = head;
  if (SESSION_KINDS.has(base))
    return sessionInput(base, session, event, { prompt: doc.prompt, source: doc.source, cwd: doc.cwd });
  const name = idOf(doc.toolName);
  if (name === undefined) return { ok: false, problem: 'hook input has no usable "toolName"', event };
  const args = argsObject(doc.toolArgs ?? {}, 'toolArgs');
  if (!args.ok) return { ok: false, problem: args.problem, event };
  const mapped = mapTool(TOOLS, name, args.args);
  if ('problem' in mapped) return { ok: false, problem: mapped.problem, event };
  if (mapped.tool === 'Bash' && typeof mapped.args.command !== 'string')
    return { ok: false, problem: `the ${name} call has no "command" string`, event };
  const result = isObj(doc.toolResult) ? doc.toolResult : undefined;
  const failed =
    base === 'PostToolUseFailure' ||
    (result !== undefined && result.resultType !== undefined && result.resultType !== 'success');
  const input: HookInput = {
    hook_event_name: base === 'PreToolUse' ? base : failed ? 'PostToolUseFailure' : 'PostToolUse',
    session_id: session,
    tool_name: mapped.tool,
    tool_input: mapped.args,
    ...(mapped.tool !== name ? { host_tool_name: name } : {}),
  };
  if (typeof doc.cwd === 'string' && doc.cwd !== '') input.cwd = doc.cwd;
  const id = idOf(doc.toolCallId) ?? idOf(doc.toolUseId);
  if (id !== undefined) input.tool_use_id = id;
  if (base !== 'PreToolUse') {
    const text = result?.textResultForLlm ?? doc.toolResult;
    if (input.hook_event_name === 'PostToolUseFailure') input.error = text;
    else input.tool_response = text;
  }
  return { ok: true, input, event };
}

/** The event a camelCase document names none of: a tool result is postToolUse; a prompt or a source with no tool is a session event; else preToolUse. */
function impliedEvent(doc: Obj): string {
  if ('toolResult' in doc) return 'postToolUse';
  if (doc.toolName === undefined && 'prompt' in doc) return 'userPromptSubmitted';
  if (doc.toolName === undefined && 'source' in doc) return 'sessionStart';
  return 'preToolUse';
}

/** The Claude-shaped variant: Claude's checks, then Copilot's tool names. */
function claudeShaped(doc: Obj): HostParse {
  const parsed = claudeInput(doc);
  if (!parsed.ok) return parsed;
  const { input, event } = parsed;
  if (input.tool_name === '' || TOOLS[input.tool_name] === undefined) return { ok: true, input, event };
  const mapped = mapTool(TOOLS, input.tool_name, input.tool_input);
  if ('problem' in mapped) return { ok: false, problem: mapped.problem, event };
  if (mapped.tool === 'Bash' && typeof mapped.args.command !== 'string')
    return { ok: false, problem: `the ${input.tool_name} call has no "command" string`, event };
  return {
    ok: true,
    input: { ...input, tool_name: mapped.tool, tool_input: mapped.args, host_tool_name: input.tool_name },
    event,
  };
}

export function shapeCopilot(decision: ShapedDecision, event: string | undefined): HostAnswer {
  const pre = event === undefined || PRE.has(event);
  if (decision.kind === 'deny') {
    const reason = forModel(decision.reason);
    if (!pre) return { json: { additionalContext: reason }, exitCode: 0 };
    return { json: { permissionDecision: 'deny', permissionDecisionReason: reason }, exitCode: 0 };
  }
  if (decision.context === undefined) return { json: {}, exitCode: 0 };
  return { json: { additionalContext: forModel(decision.context) }, exitCode: 0 };
}
