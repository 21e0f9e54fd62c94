// Claude Code hook stdin → a checked HookInput, or a description of what is wrong with it. Bytes go
// through core's decodeJson (size, UTF-8, depth, syntax); the shape checks here are the host's own.
import { decodeJson, isFault } from '@tollgate/core';

export const TOOL_EVENTS = ['PreToolUse', 'PostToolUse', 'PostToolUseFailure'] as const;
/** Session events: what the agent was told (the user's prompt) and how the session started. */
export const SESSION_EVENTS = ['UserPromptSubmit', 'SessionStart'] as const;
export const HANDLED_EVENTS = [...TOOL_EVENTS, ...SESSION_EVENTS] as const;
export type HookEvent = (typeof HANDLED_EVENTS)[number];

export interface HookInput {
  hook_event_name: HookEvent;
  session_id: string;
  cwd?: string;
  /** The canonical tool name (Bash, Write, Edit, Read, mcp__<server>__<tool>, ...). */
  tool_name: string;
  tool_input: Record<string, unknown>;
  /** The host's own name for the tool, when it differs from the canonical one (write_file, apply_patch). */
  host_tool_name?: string;
  tool_use_id?: string;
  tool_response?: unknown;
  error?: unknown;
  agent_id?: string;
  agent_type?: string;
  permission_mode?: string;
  /** UserPromptSubmit: the user's prompt. */
  prompt?: string;
  /** SessionStart: startup, resume, clear or compact. */
  source?: string;
}

export type HookParse =
  | { ok: true; input: HookInput }
  | { ok: false; code: string; problem: string /** The event, when it could be read. */; event?: string };

const MAX_ID = 256;

export function parseHookInput(bytes: Uint8Array | string): HookParse {
  let doc: unknown;
  try {
    doc = decodeJson(bytes);
  } catch (error) {
    if (isFault(error)) return { ok: false, code: error.code, problem: `hook ${error.message}` };
    throw error;
  }
  return checkHookInput(doc);
}

/** Shape checks for an already-decoded document (the HTTP hook endpoint decodes its body itself). */
export function checkHookInput(doc: unknown): HookParse {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    return bad('hook input is not a JSON object');
  const d = doc as Record<string, unknown>;
  const event = typeof d.hook_event_name === 'string' ? d.hook_event_name.slice(0, 64) : undefined;
  if (event === undefined) return bad('hook input has no "hook_event_name"');
  if (!(HANDLED_EVENTS as readonly string[]).includes(event)) {
    return bad(
      `hook event ${JSON.stringify(event)} is not one tollgate handles (${HANDLED_EVENTS.join(', ')}); register tollgate only for those events`,
      event,
      'unknown_event',
    );
  }
  if (typeof d.session_id !== 'string' || d.session_id === '' || d.session_id.length > MAX_ID)
    return bad('hook input has no usable "session_id" (a non-empty string of at most 256 characters)', event);
  if ((SESSION_EVENTS as readonly string[]).includes(event)) return sessionEvent(d, event, d.session_id);
  if (typeof d.tool_name !== 'string' || d.tool_name === '' || d.tool_name.length > MAX_ID)
    return bad('hook input has no usable "tool_name"', event);
  if (d.tool_input === null || typeof d.tool_input !== 'object' || Array.isArray(d.tool_input))
    return bad('hook input "tool_input" is not a JSON object', event);
  const input: HookInput = {
    hook_event_name: event as HookEvent,
    session_id: d.session_id,
    tool_name: d.tool_name,
    tool_input: d.tool_input as Record<string, unknown>,
  };
  if (typeof d.cwd === 'string' && d.cwd !== '') input.cwd = d.cwd;
  if (typeof d.tool_use_id === 'string') input.tool_use_id = d.tool_use_id;
  if ('tool_response' in d) input.tool_response = d.tool_response;
  if ('error' in d) input.error = d.error;
  if (typeof d.agent_id === 'string') input.agent_id = d.agent_id;
  if (typeof d.agent_type === 'string') input.agent_type = d.agent_type;
  if (typeof d.permission_mode === 'string') input.permission_mode = d.permission_mode;
  return { ok: true, input };
}

/** A session event carries no tool: tool_name is empty and tool_input {}, and only these events read them so. */
function sessionEvent(d: Record<string, unknown>, event: string, session: string): HookParse {
  if (event === 'UserPromptSubmit' && typeof d.prompt !== 'string')
    return bad('UserPromptSubmit input has no "prompt" string', event);
  const input: HookInput = {
    hook_event_name: event as HookEvent,
    session_id: session,
    tool_name: '',
    tool_input: {},
  };
  if (typeof d.prompt === 'string') input.prompt = d.prompt;
  if (typeof d.source === 'string') input.source = d.source.slice(0, 64);
  if (typeof d.cwd === 'string' && d.cwd !== '') input.cwd = d.cwd;
  return { ok: true, input };
}

function bad(problem: string, event?: string, code = 'bad_hook_input'): HookParse {
  return event === undefined ? { ok: false, code, problem } : { ok: false, code, problem, event };
}
