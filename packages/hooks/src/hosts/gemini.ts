// Gemini CLI: BeforeTool / AfterTool with session_id, cwd, tool_name, tool_input (AfterTool adds
// tool_response). It answers {decision: "allow" | "deny", reason}: the reason reaches the agent as
// the tool's error. Tool names are Gemini's own (run_shell_command, write_file, replace, read_file,
// ...), mapped here to the canonical ones; MCP tools are already mcp__<server>__<tool>. Gemini gives
// no tool-call id, so an AfterTool read pairs with nothing and is recorded unattested. BeforeAgent
// {prompt} (after the user submits a prompt) and SessionStart {source} are Claude Code's
// UserPromptSubmit and SessionStart: the prompt is recorded as the session's directive. Their answer
// never blocks the turn: a problem is a systemMessage, the session brief is additionalContext.
import type { HostAdapter, HostAnswer, HostParse, ShapedDecision } from '../host.js';
import { forModel } from '../host.js';
import type { HookEvent, HookInput } from '../input.js';
import {
  defined,
  hostAdapter,
  hostHead,
  idOf,
  isObj,
  mapTool,
  type Obj,
  only,
  sessionInput,
  type ToolMap,
  workdirOf,
} from './canonical.js';

const EVENTS: Record<string, HookEvent> = {
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  BeforeAgent: 'UserPromptSubmit',
  SessionStart: 'SessionStart',
};
/** Gemini's lifecycle events tollgate handles: they take no tool matcher and never block. */
export const GEMINI_SESSION_EVENTS: ReadonlySet<string> = new Set(['BeforeAgent', 'SessionStart']);

export const gemini: HostAdapter = hostAdapter(
  'gemini',
  'Gemini CLI',
  'run_shell_command',
  Object.keys(EVENTS),
  {
    parse: parseGemini,
    shape: shapeGemini,
  },
);

/** Gemini's tool name and args → the canonical tool and args (a name not listed stays itself). */
const TOOLS: ToolMap = {
  run_shell_command: (a) => ({ tool: 'Bash', args: defined({ command: a.command }) }),
  write_file: (a) => ({
    tool: 'Write',
    args: defined({ file_path: only(a, 'file_path', 'path'), content: a.content }),
  }),
  replace: (a) => ({
    tool: 'Edit',
    args: defined({
      file_path: only(a, 'file_path', 'path'),
      old_string: a.old_string,
      new_string: a.new_string,
      expected_replacements: a.expected_replacements,
    }),
  }),
  read_file: (a) => ({
    tool: 'Read',
    args: defined({ file_path: only(a, 'file_path', 'absolute_path', 'path') }),
  }),
  read_many_files: (a) => ({ tool: 'Read', args: defined({ paths: a.paths ?? a.include }) }),
  list_directory: (a) => ({ tool: 'LS', args: defined({ path: only(a, 'dir_path', 'path') }) }),
  glob: (a) => ({ tool: 'Glob', args: defined({ pattern: a.pattern, path: only(a, 'dir_path', 'path') }) }),
  search_file_content: (a) => ({
    tool: 'Grep',
    args: defined({ pattern: a.pattern, path: only(a, 'dir_path', 'path') }),
  }),
  grep_search: (a) => ({
    tool: 'Grep',
    args: defined({ pattern: a.pattern, path: only(a, 'dir_path', 'path') }),
  }),
  web_fetch: (a) => ({ tool: 'WebFetch', args: a }),
  google_web_search: (a) => ({ tool: 'WebSearch', args: a }),
};

export function parseGemini(raw: unknown): HostParse {
  const head = hostHead(raw, { events: EVENTS, label: 'Gemini CLI', sessionKeys: ['session_id'] });
  if (!head.ok) return head;
  const { doc, event, canonical, session } = head;
  if (GEMINI_SESSION_EVENTS.has(event))
    return sessionInput(canonical, session, event, {
      prompt: doc.prompt,
      source: doc.source ?? doc.trigger,
      cwd: doc.cwd,
    });
  const name = idOf(doc.tool_name);
  if (name === undefined) return { ok: false, problem: 'hook input has no usable "tool_name"', event };
  if (!isObj(doc.tool_input))
    return { ok: false, problem: 'hook input "tool_input" is not a JSON object', event };
  const mapped = mapTool(TOOLS, name, doc.tool_input);
  if ('problem' in mapped) return { ok: false, problem: mapped.problem, event };
  if (mapped.tool === 'Bash' && typeof mapped.args.command !== 'string')
    return { ok: false, problem: 'the run_shell_command call has no "command" string', event };
  const response = doc.tool_response;
  const failed =
    canonical === 'PostToolUse' && isObj(response) && response.error !== undefined && response.error !== null;
  const input: HookInput = {
    hook_event_name: failed ? 'PostToolUseFailure' : canonical,
    session_id: session,
    tool_name: mapped.tool,
    tool_input: mapped.args,
    ...(mapped.tool !== name ? { host_tool_name: name } : {}),
  };
  const cwd = typeof doc.cwd === 'string' && doc.cwd !== '' ? doc.cwd : undefined;
  // run_shell_command runs in `directory` / `dir_path` when it names one (relative to the project, or absolute).
  if (name === 'run_shell_command') {
    const where = workdirOf(doc.tool_input, ['directory', 'dir_path'], cwd);
    if ('problem' in where)
      return { ok: false, problem: `the run_shell_command call is bad input: ${where.problem}`, event };
    if (where.dir !== undefined) input.cwd = where.dir;
    else if (cwd !== undefined) input.cwd = cwd;
  } else if (cwd !== undefined) input.cwd = cwd;
  const id = idOf(doc.tool_call_id) ?? idOf(doc.tool_use_id);
  if (id !== undefined) input.tool_use_id = id;
  if (canonical === 'PostToolUse') {
    if (failed) input.error = (response as Obj).error;
    else if ('tool_response' in doc) input.tool_response = geminiResponse(response);
  }
  return { ok: true, input, event };
}

/** What the model saw: llmContent when Gemini gives it, else the whole response. */
function geminiResponse(response: unknown): unknown {
  return isObj(response) && response.llmContent !== undefined ? response.llmContent : response;
}

export function shapeGemini(decision: ShapedDecision, event: string | undefined): HostAnswer {
  if (decision.kind === 'deny' && event !== undefined && GEMINI_SESSION_EVENTS.has(event))
    return { json: { systemMessage: forModel(decision.reason) }, exitCode: 0 };
  if (decision.kind === 'deny')
    return { json: { decision: 'deny', reason: forModel(decision.reason) }, exitCode: 0 };
  if (decision.kind === 'pass') return { json: { decision: 'allow' }, exitCode: 0 };
  if (decision.context === undefined) return { json: {}, exitCode: 0 };
  return {
    json: {
      hookSpecificOutput: {
        hookEventName: event ?? 'AfterTool',
        additionalContext: forModel(decision.context),
      },
    },
    exitCode: 0,
  };
}
