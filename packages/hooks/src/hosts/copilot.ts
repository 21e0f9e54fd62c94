// GitHub Copilot CLI: preToolUse / postToolUse with camelCase input {sessionId, timestamp, cwd,
// toolName, toolArgs} where toolArgs may be a JSON string; postToolUse adds toolResult
// {resultType, textResultForLlm}. The event is hookEventName when given, else postToolUse exactly when
// a toolResult is present. An event spelled the Claude way (hook_event_name PreToolUse) carries the
// snake_case Claude shape. Tools are bash, edit, create, view, ... mapped to the canonical names. It
// answers {permissionDecision: "allow"|"deny"|"ask", permissionDecisionReason}; a pass is {} (no
// decision, so Copilot's own approvals still decide; an "allow" could skip them). Copilot gives no
// tool-call id, so a post event pairs with nothing and its read is recorded unattested.
import type { HostAdapter, HostAnswer, HostParse, ShapedDecision } from '../host.js';
import { forModel } from '../host.js';
import { checkHookInput, type HookEvent, type HookInput } from '../input.js';
import { CLAUDE_CODE } from '../translate.js';
import { argsObject, defined, idOf, isObj, type Obj, pick } from './canonical.js';

const EVENTS: Record<string, HookEvent> = {
  preToolUse: 'PreToolUse',
  postToolUse: 'PostToolUse',
  postToolUseFailure: 'PostToolUseFailure',
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  PostToolUseFailure: 'PostToolUseFailure',
};
const PRE = new Set(['preToolUse', 'PreToolUse']);

export const copilot: HostAdapter = {
  name: 'copilot',
  info: {
    ...CLAUDE_CODE,
    agent: 'copilot',
    recordedBy: 'hook:copilot',
    label: 'Copilot CLI',
    shellTool: 'bash',
  },
  events: Object.keys(EVENTS),
  projectDirEnv: ['COPILOT_PROJECT_DIR'],
  parse: parseCopilot,
  shape: shapeCopilot,
};

/** Copilot's tools → canonical (a name not listed stays itself). */
const TOOLS: Record<string, (a: Obj) => { tool: string; args: Obj }> = {
  bash: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  shell: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  create: (a) => ({
    tool: 'Write',
    args: defined({ file_path: pick(a, 'path', 'file_path'), content: a.file_text ?? a.content }),
  }),
  edit: (a) => ({
    tool: 'Edit',
    args: defined({
      file_path: pick(a, 'path', 'file_path'),
      old_string: a.old_str ?? a.old_string,
      new_string: a.new_str ?? a.new_string,
    }),
  }),
  view: (a) => ({ tool: 'Read', args: defined({ file_path: pick(a, 'path', 'file_path') }) }),
  grep: (a) => ({ tool: 'Grep', args: a }),
  glob: (a) => ({ tool: 'Glob', args: a }),
  web_fetch: (a) => ({ tool: 'WebFetch', args: a }),
};

export function parseCopilot(doc: unknown): HostParse {
  if (!isObj(doc)) return { ok: false, problem: 'hook input is not a JSON object' };
  if (typeof doc.hook_event_name === 'string') return claudeShaped(doc);
  const given = typeof doc.hookEventName === 'string' ? doc.hookEventName.slice(0, 64) : undefined;
  const event = given ?? ('toolResult' in doc ? 'postToolUse' : 'preToolUse');
  const base = EVENTS[event];
  if (base === undefined)
    return {
      ok: false,
      problem: `hook event ${JSON.stringify(event)} is not one tollgate handles for Copilot CLI (preToolUse, postToolUse)`,
      event,
    };
  const session = idOf(doc.sessionId);
  if (session === undefined)
    return {
      ok: false,
      problem: 'hook input has no usable "sessionId" (a non-empty string of at most 256 characters)',
      event,
    };
  const name = idOf(doc.toolName);
  if (name === undefined) return { ok: false, problem: 'hook input has no usable "toolName"', event };
  const args = argsObject(doc.toolArgs ?? {}, 'toolArgs');
  if (!args.ok) return { ok: false, problem: args.problem, event };
  const mapped = TOOLS[name]?.(args.args) ?? { tool: name, args: args.args };
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

/** The Claude-shaped variant: Claude's checks, then Copilot's tool names. */
function claudeShaped(doc: Obj): HostParse {
  const parsed = checkHookInput(doc);
  if (!parsed.ok)
    return parsed.event === undefined
      ? { ok: false, problem: parsed.problem }
      : { ok: false, problem: parsed.problem, event: parsed.event };
  const input = parsed.input;
  const mapped = TOOLS[input.tool_name]?.(input.tool_input);
  const event = input.hook_event_name;
  if (!mapped) return { ok: true, input, event };
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
