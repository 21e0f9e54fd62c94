// Cursor: one hook per kind of call. beforeShellExecution {command, cwd}, beforeMCPExecution
// {tool_name, tool_input, server?}, preToolUse {tool_name, tool_input, tool_use_id?} for its own tools
// (Shell, Write, StrReplace, Delete, Read, ...); afterShellExecution {command, output},
// afterMCPExecution {tool_name, tool_input, result_json}, afterFileEdit {file_path, edits},
// postToolUse {tool_name, tool_input, tool_output}. The session is conversation_id. It answers
// {permission: "allow"|"deny"|"ask", user_message, agent_message (for the model)}; the after* events
// are observe-only and get {}. preToolUse / postToolUse for a shell or MCP call answer no objection
// and record nothing: the dedicated events decide those, and a call is decided once. A pass is {"continue": true} with no permission, so Cursor's own
// approval settings still decide (a "permission": "allow" could skip them). beforeSubmitPrompt
// {prompt, attachments} is Claude Code's UserPromptSubmit: the prompt is recorded as the session's
// directive, and the answer is always {"continue": true} (a gate problem never blocks the prompt).
import type { HostAdapter, HostAnswer, HostParse, ShapedDecision } from '../host.js';
import { forModel } from '../host.js';
import type { HookEvent, HookInput } from '../input.js';
import {
  argsObject,
  defined,
  hostAdapter,
  hostHead,
  idOf,
  mapTool,
  type Obj,
  only,
  pick,
  SESSION_KINDS,
  sessionInput,
  type ToolMap,
} from './canonical.js';

const PRE: Record<string, true> = { beforeShellExecution: true, beforeMCPExecution: true, preToolUse: true };
const EVENTS: Record<string, HookEvent> = {
  beforeShellExecution: 'PreToolUse',
  beforeMCPExecution: 'PreToolUse',
  preToolUse: 'PreToolUse',
  afterShellExecution: 'PostToolUse',
  afterMCPExecution: 'PostToolUse',
  afterFileEdit: 'PostToolUse',
  postToolUse: 'PostToolUse',
  beforeSubmitPrompt: 'UserPromptSubmit',
};

export const cursor: HostAdapter = hostAdapter('cursor', 'Cursor', 'the terminal', Object.keys(EVENTS), {
  parse: parseCursor,
  shape: shapeCursor,
});

/** Cursor's agent tools → canonical (a name not listed stays itself). */
const TOOLS: ToolMap = {
  Shell: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  TabWrite: (a) => ({
    tool: 'Write',
    args: defined({
      file_path: only(a, 'file_path', 'path', 'target_file'),
      content: a.contents ?? a.content,
    }),
  }),
  Write: (a) => ({
    tool: 'Write',
    args: defined({
      file_path: only(a, 'file_path', 'path', 'target_file'),
      content: a.contents ?? a.content,
    }),
  }),
  StrReplace: (a) => editArgs(a),
  Edit: (a) => editArgs(a),
  Delete: (a) => ({
    tool: 'delete_file',
    args: defined({ path: only(a, 'file_path', 'path', 'target_file') }),
  }),
  Read: (a) => ({ tool: 'Read', args: defined({ file_path: only(a, 'file_path', 'path', 'target_file') }) }),
};

function editArgs(a: Obj): { tool: string; args: Obj } {
  return {
    tool: 'Edit',
    args: defined({
      file_path: only(a, 'file_path', 'path', 'target_file'),
      old_string: a.old_string,
      new_string: a.new_string,
    }),
  };
}

/**
 * Cursor's generic tool events also fire for shell and MCP calls, which beforeShellExecution /
 * beforeMCPExecution (and their after-events) decide and record: those are left to them.
 */
const DECIDED_ELSEWHERE = /^(Shell|run_terminal_cmd|Terminal|MCP\b.*|mcp[_:].*)$/;

/** An MCP tool as the canonical mcp__<server>__<tool> (Cursor names the bare tool; the server when it says). */
function mcpName(tool: string, doc: Obj): string {
  if (tool.startsWith('mcp__')) return tool;
  const server = pick(doc, 'server', 'server_name');
  return `mcp__${server && /^[\w.-]{1,64}$/.test(server) ? server : 'cursor'}__${tool}`;
}

export function parseCursor(raw: unknown): HostParse {
  const head = hostHead(raw, {
    events: EVENTS,
    label: 'Cursor',
    sessionKeys: ['conversation_id', 'session_id'],
  });
  if (!head.ok) return head;
  const { doc, event, canonical, session } = head;
  if (SESSION_KINDS.has(canonical)) {
    const roots = Array.isArray(doc.workspace_roots) ? doc.workspace_roots : [];
    return sessionInput(canonical, session, event, {
      prompt: doc.prompt,
      source: undefined,
      cwd: pick(doc, 'cwd') ?? roots[0],
    });
  }
  const call = cursorCall(event, doc);
  if ('problem' in call) return { ok: false, problem: call.problem, event };
  const input: HookInput = {
    hook_event_name: canonical,
    session_id: session,
    tool_name: call.tool,
    tool_input: call.args,
    ...(call.host !== call.tool ? { host_tool_name: call.host } : {}),
  };
  const roots = Array.isArray(doc.workspace_roots) ? doc.workspace_roots : [];
  const cwd = pick(doc, 'cwd') || (typeof roots[0] === 'string' ? roots[0] : undefined);
  if (cwd) input.cwd = cwd;
  // Pairs a post event with its pre event: the tool-use id of Cursor's own tool events. Never the
  // generation_id: one model turn runs several calls under it, so a post event for any of them would
  // vouch for the others. beforeShellExecution / beforeMCPExecution and their after-events give no
  // per-call id, so what they report is recorded unattested (rules with require_attested refuse it).
  const ref = idOf(doc.tool_use_id);
  if (ref !== undefined) input.tool_use_id = ref;
  if (canonical === 'PostToolUse') input.tool_response = call.response;
  const generic = event === 'preToolUse' || event === 'postToolUse';
  if (generic && DECIDED_ELSEWHERE.test(call.host)) return { ok: true, input, event, elsewhere: true };
  return { ok: true, input, event };
}

interface CursorCall {
  host: string;
  tool: string;
  args: Obj;
  response?: unknown;
}

function cursorCall(event: string, doc: Obj): CursorCall | { problem: string } {
  if (event === 'beforeShellExecution' || event === 'afterShellExecution') {
    if (typeof doc.command !== 'string') return { problem: `the ${event} input has no "command" string` };
    return {
      host: 'shell',
      tool: 'Bash',
      args: { command: doc.command },
      response: { stdout: pick(doc, 'output') ?? '' },
    };
  }
  if (event === 'afterFileEdit') {
    const path = pick(doc, 'file_path');
    if (path === undefined) return { problem: 'the afterFileEdit input has no "file_path" string' };
    return { host: 'file edit', tool: 'Edit', args: { file_path: path }, response: doc.edits };
  }
  const name = idOf(doc.tool_name);
  if (name === undefined) return { problem: 'hook input has no usable "tool_name"' };
  const parsed = argsObject(doc.tool_input ?? {}, 'tool_input');
  if (!parsed.ok) return { problem: parsed.problem };
  const response = doc.result_json ?? doc.tool_output;
  if (event === 'beforeMCPExecution' || event === 'afterMCPExecution')
    return { host: name, tool: mcpName(name, doc), args: parsed.args, response };
  const mapped = mapTool(TOOLS, name, parsed.args);
  if ('problem' in mapped) return { problem: mapped.problem };
  if (mapped.tool === 'Bash' && typeof mapped.args.command !== 'string')
    return { problem: `the ${name} call has no "command" string` };
  return { host: name, ...mapped, response };
}

export function shapeCursor(decision: ShapedDecision, event: string | undefined): HostAnswer {
  if (event !== undefined && EVENTS[event] !== undefined && SESSION_KINDS.has(EVENTS[event]))
    return { json: { continue: true }, exitCode: 0 };
  const pre = event === undefined || PRE[event] === true;
  if (decision.kind === 'deny') {
    const reason = forModel(decision.reason);
    if (!pre) return { json: {}, exitCode: 0 };
    return {
      json: {
        permission: 'deny',
        user_message: forModel(`Tollgate held this call: ${firstLine(reason)}`),
        agent_message: reason,
      },
      exitCode: 0,
    };
  }
  if (decision.kind === 'pass') {
    if (decision.context === undefined) return { json: { continue: true }, exitCode: 0 };
    return { json: { continue: true, agent_message: forModel(decision.context) }, exitCode: 0 };
  }
  return { json: {}, exitCode: 0 };
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
