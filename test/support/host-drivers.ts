// How each non-Claude agent host drives `tollgate hook <host>`: its own pre- and post-tool event for
// a shell command, and how its answer reads (deny with a reason, pass, context for the model). The
// shapes follow each host's documented hook contract; the conformance suite (test/hosts-hook.test.ts)
// runs the same steps through every driver.
import type { Run } from '../../packages/cli/src/testing/harness.js';
import { lastJson } from '../../packages/cli/src/testing/harness.js';

export interface Read {
  kind: 'deny' | 'pass' | 'noted';
  /** The text the model reads (deny reason, or context). */
  text: string;
  json: Record<string, unknown>;
}

export interface HostDriver {
  host: 'codex' | 'gemini' | 'cursor' | 'copilot';
  /** The host's shell tool, as the rails name it. */
  shellTool: string;
  /** Whether a post event's answer carries context to the model (the observation id). */
  postContext: boolean;
  pre(session: string, cwd: string, command: string, ref: string): unknown;
  post(session: string, cwd: string, command: string, stdout: string, ref: string): unknown;
  /** The host's own file-write tool call (a pre-tool event). */
  write(session: string, cwd: string, path: string, content: string): unknown;
  /** The host's MCP tool call (a pre-tool event), where the host names MCP tools so rules can match them. */
  mcp?(session: string, cwd: string, server: string, tool: string, args: Record<string, unknown>): unknown;
  /** The host's own event for the user's prompt. */
  prompt(session: string, cwd: string, text: string): unknown;
  /** The host's own session-start event, where tollgate handles one (Cursor's is not). */
  start?(session: string, cwd: string): unknown;
  /** The answer to a prompt or session-start event (throws when it would block the turn). */
  readSession(run: Run): Read;
  /** The answer to a pre event, checked for the host's shape (throws when it is neither a deny nor a pass). */
  readPre(run: Run): Read;
  readPost(run: Run): Read;
}

type J = Record<string, unknown>;
const obj = (v: unknown): J => (v !== null && typeof v === 'object' ? (v as J) : {});

export const codex: HostDriver = {
  host: 'codex',
  shellTool: 'Bash',
  postContext: true,
  pre: (session, cwd, command, ref) => ({
    session_id: session,
    transcript_path: null,
    cwd,
    hook_event_name: 'PreToolUse',
    model: 'gpt-5-codex',
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: ref,
  }),
  post: (session, cwd, command, stdout, ref) => ({
    ...(codex.pre(session, cwd, command, ref) as J),
    hook_event_name: 'PostToolUse',
    tool_response: stdout,
  }),
  write: (session, cwd, path, content) => ({
    ...(codex.pre(session, cwd, 'x', 'w') as J),
    tool_name: 'apply_patch',
    tool_input: { input: `*** Begin Patch\n*** Add File: ${path}\n+${content}\n*** End Patch\n` },
  }),
  mcp: (session, cwd, server, tool, args) => ({
    ...(codex.pre(session, cwd, 'x', 'm') as J),
    tool_name: `mcp__${server}__${tool}`,
    tool_input: args,
  }),
  prompt: (session, cwd, text) => ({
    session_id: session,
    transcript_path: null,
    cwd,
    hook_event_name: 'UserPromptSubmit',
    model: 'gpt-5-codex',
    prompt: text,
  }),
  start: (session, cwd) => ({
    session_id: session,
    transcript_path: null,
    cwd,
    hook_event_name: 'SessionStart',
    model: 'gpt-5-codex',
    source: 'startup',
  }),
  readSession(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.continue !== true) throw new Error(`codex blocked the turn: ${run.stdout}`);
    return { kind: 'noted', text: String(obj(json.hookSpecificOutput).additionalContext ?? ''), json };
  },
  readPre(run) {
    const json = lastJson(run.stdout);
    const out = obj(json.hookSpecificOutput);
    if (out.permissionDecision === 'deny') {
      // Codex's dependable channel: exit 2 with the reason on stderr, the JSON deny beside it.
      if (run.code !== 2) throw new Error(`codex deny exited ${run.code}`);
      const reason = String(out.permissionDecisionReason);
      if (run.stderr.trim() !== reason.trim()) throw new Error('codex deny: stderr is not the reason');
      return { kind: 'deny', text: reason, json };
    }
    if (run.code === 0 && json.continue === true && out.permissionDecision === undefined)
      return { kind: 'pass', text: '', json };
    throw new Error(`not a Codex answer: ${run.code} ${run.stdout}`);
  },
  readPost(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.continue !== true) throw new Error(`not a Codex post answer: ${run.stdout}`);
    return { kind: 'noted', text: String(obj(json.hookSpecificOutput).additionalContext ?? ''), json };
  },
};

export const gemini: HostDriver = {
  host: 'gemini',
  shellTool: 'run_shell_command',
  postContext: true,
  pre: (session, cwd, command) => ({
    session_id: session,
    transcript_path: `/home/u/.gemini/tmp/x/chats/${session}.json`,
    cwd,
    hook_event_name: 'BeforeTool',
    timestamp: new Date().toISOString(),
    tool_name: 'run_shell_command',
    tool_input: { command, description: 'agent command' },
  }),
  post: (session, cwd, command, stdout) => ({
    ...(gemini.pre(session, cwd, command, '') as J),
    hook_event_name: 'AfterTool',
    tool_response: { llmContent: stdout, returnDisplay: stdout },
  }),
  write: (session, cwd, path, content) => ({
    ...(gemini.pre(session, cwd, 'x', '') as J),
    tool_name: 'write_file',
    tool_input: { file_path: path, content },
  }),
  mcp: (session, cwd, server, tool, args) => ({
    ...(gemini.pre(session, cwd, 'x', '') as J),
    tool_name: `mcp__${server}__${tool}`,
    tool_input: args,
    mcp_context: { server_name: server, tool_name: tool },
  }),
  prompt: (session, cwd, text) => ({
    session_id: session,
    transcript_path: `/home/u/.gemini/tmp/x/chats/${session}.json`,
    cwd,
    hook_event_name: 'BeforeAgent',
    timestamp: new Date().toISOString(),
    prompt: text,
  }),
  start: (session, cwd) => ({
    session_id: session,
    transcript_path: `/home/u/.gemini/tmp/x/chats/${session}.json`,
    cwd,
    hook_event_name: 'SessionStart',
    timestamp: new Date().toISOString(),
    source: 'startup',
  }),
  readSession(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.decision !== undefined || json.continue === false)
      throw new Error(`gemini blocked the turn: ${run.stdout}`);
    return { kind: 'noted', text: String(obj(json.hookSpecificOutput).additionalContext ?? ''), json };
  },
  readPre(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0) throw new Error(`gemini exited ${run.code}`);
    if (json.decision === 'deny') return { kind: 'deny', text: String(json.reason), json };
    if (json.decision === 'allow') return { kind: 'pass', text: '', json };
    throw new Error(`not a Gemini answer: ${run.stdout}`);
  },
  readPost(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.decision === 'deny')
      throw new Error(`not a Gemini post answer: ${run.stdout}`);
    return { kind: 'noted', text: String(obj(json.hookSpecificOutput).additionalContext ?? ''), json };
  },
};

export const cursor: HostDriver = {
  host: 'cursor',
  shellTool: 'the terminal',
  postContext: false,
  pre: (session, cwd, command, ref) => ({
    conversation_id: session,
    generation_id: ref,
    hook_event_name: 'beforeShellExecution',
    command,
    cwd,
    workspace_roots: [cwd],
  }),
  post: (session, cwd, command, stdout, ref) => ({
    conversation_id: session,
    generation_id: ref,
    hook_event_name: 'afterShellExecution',
    command,
    output: stdout,
    duration: 12,
    workspace_roots: [cwd],
  }),
  write: (session, cwd, path, content) => ({
    conversation_id: session,
    generation_id: 'w',
    hook_event_name: 'preToolUse',
    tool_name: 'Write',
    tool_input: { path, contents: content },
    tool_use_id: 'tool-w',
    workspace_roots: [cwd],
  }),
  mcp: (session, cwd, server, tool, args) => ({
    conversation_id: session,
    generation_id: 'm',
    hook_event_name: 'beforeMCPExecution',
    tool_name: tool,
    tool_input: JSON.stringify(args),
    server,
    workspace_roots: [cwd],
  }),
  prompt: (session, cwd, text) => ({
    conversation_id: session,
    generation_id: 'gen-prompt',
    hook_event_name: 'beforeSubmitPrompt',
    prompt: text,
    attachments: [],
    workspace_roots: [cwd],
  }),
  readSession(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.continue !== true) throw new Error(`cursor blocked the prompt: ${run.stdout}`);
    return { kind: 'noted', text: '', json };
  },
  readPre(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0) throw new Error(`cursor exited ${run.code}`);
    if (json.permission === 'deny') {
      if (typeof json.user_message !== 'string') throw new Error('cursor deny without user_message');
      return { kind: 'deny', text: String(json.agent_message), json };
    }
    // A pass grants nothing: continue, and no permission field (Cursor's own approvals decide).
    if (json.continue === true && json.permission === undefined)
      return { kind: 'pass', text: String(json.agent_message ?? ''), json };
    throw new Error(`not a Cursor answer: ${run.stdout}`);
  },
  readPost(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || JSON.stringify(json) !== '{}')
      throw new Error(`not a Cursor post answer: ${run.stdout}`);
    return { kind: 'noted', text: '', json };
  },
};

export const copilot: HostDriver = {
  host: 'copilot',
  shellTool: 'bash',
  postContext: true,
  pre: (session, cwd, command) => ({
    sessionId: session,
    timestamp: Date.now(),
    cwd,
    toolName: 'bash',
    // Copilot CLI hands the arguments as a JSON string.
    toolArgs: JSON.stringify({ command, description: 'agent command' }),
  }),
  post: (session, cwd, command, stdout) => ({
    ...(copilot.pre(session, cwd, command, '') as J),
    toolResult: { resultType: 'success', textResultForLlm: stdout },
  }),
  write: (session, cwd, path, content) => ({
    sessionId: session,
    timestamp: Date.now(),
    cwd,
    toolName: 'create',
    toolArgs: JSON.stringify({ path, file_text: content }),
  }),
  prompt: (session, cwd, text) => ({ sessionId: session, timestamp: Date.now(), cwd, prompt: text }),
  start: (session, cwd) => ({ sessionId: session, timestamp: Date.now(), cwd, source: 'new' }),
  readSession(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.permissionDecision !== undefined)
      throw new Error(`not a Copilot session answer: ${run.stdout}`);
    return { kind: 'noted', text: String(json.additionalContext ?? ''), json };
  },
  readPre(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0) throw new Error(`copilot exited ${run.code}`);
    if (json.permissionDecision === 'deny')
      return { kind: 'deny', text: String(json.permissionDecisionReason), json };
    if (json.permissionDecision === undefined)
      return { kind: 'pass', text: String(json.additionalContext ?? ''), json };
    throw new Error(`not a Copilot answer: ${run.stdout}`);
  },
  readPost(run) {
    const json = lastJson(run.stdout);
    if (run.code !== 0 || json.permissionDecision !== undefined)
      throw new Error(`not a Copilot post answer: ${run.stdout}`);
    return { kind: 'noted', text: String(json.additionalContext ?? ''), json };
  },
};

export const DRIVERS: readonly HostDriver[] = [codex, gemini, cursor, copilot];
