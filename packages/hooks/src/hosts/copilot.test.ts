import { describe, expect, it } from 'vitest';
import { parseCopilot, shapeCopilot } from './copilot.js';

const pre = (toolName: string, toolArgs: unknown, extra = {}) => ({
  sessionId: 'p1',
  timestamp: 1,
  cwd: '/repo',
  toolName,
  toolArgs,
  ...extra,
});

describe('Copilot CLI input', () => {
  it.each([
    ['bash', '{"command":"git push -f","description":"d"}', 'Bash', { command: 'git push -f' }],
    ['create', { path: '/repo/a', file_text: 'x' }, 'Write', { file_path: '/repo/a', content: 'x' }],
    [
      'edit',
      { path: '/repo/a', old_str: 'x', new_str: 'y' },
      'Edit',
      { file_path: '/repo/a', old_string: 'x', new_string: 'y' },
    ],
    ['view', { path: '/repo/a' }, 'Read', { file_path: '/repo/a' }],
    [
      'github-mcp-server-merge_pull_request',
      { pullNumber: 1 },
      'github-mcp-server-merge_pull_request',
      { pullNumber: 1 },
    ],
  ])('%s → %s', (tool, args, canonical, input) => {
    const parsed = parseCopilot(pre(tool, args));
    expect(parsed.ok && parsed.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'p1',
      tool_name: canonical,
      tool_input: input,
    });
  });

  it('a toolResult makes it postToolUse; a failure result is a failure', () => {
    const ok = parseCopilot(
      pre('bash', { command: 'ls' }, { toolResult: { resultType: 'success', textResultForLlm: 'a\n' } }),
    );
    expect(ok.ok && ok.input).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: 'a\n' });
    const bad = parseCopilot(
      pre('bash', { command: 'ls' }, { toolResult: { resultType: 'failure', textResultForLlm: 'no' } }),
    );
    expect(bad.ok && bad.input).toMatchObject({ hook_event_name: 'PostToolUseFailure', error: 'no' });
  });

  it('reads the Claude-shaped variant with Copilot tool names', () => {
    const parsed = parseCopilot({
      session_id: 'p2',
      hook_event_name: 'PreToolUse',
      tool_name: 'bash',
      tool_input: { command: 'ls' },
    });
    expect(parsed.ok && parsed.input).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      host_tool_name: 'bash',
    });
  });

  it('names what is wrong', () => {
    expect(parseCopilot({ toolName: 'bash', toolArgs: {} })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('sessionId'),
    });
    expect(parseCopilot(pre('bash', 'not json'))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('toolArgs'),
    });
    expect(parseCopilot(pre('bash', {}))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"command"'),
    });
    expect(parseCopilot(pre('bash', { command: 'ls' }, { hookEventName: 'sessionEnd' }))).toMatchObject({
      ok: false,
      event: 'sessionEnd',
    });
  });
});

describe('Copilot CLI live shells and aliases', () => {
  it('write_bash is the shell line it types ({enter} ends it); edit keys are refused; read_bash stays itself', () => {
    const typed = parseCopilot(
      pre('write_bash', { sessionId: 'b1', input: 'git push --force origin main{enter}' }),
    );
    expect(typed.ok && typed.input).toMatchObject({
      tool_name: 'Bash',
      host_tool_name: 'write_bash',
      tool_input: { command: 'git push --force origin main\n' },
    });
    const claude = parseCopilot({
      hook_event_name: 'PreToolUse',
      session_id: 'p1',
      tool_name: 'write_bash',
      tool_input: { sessionId: 'b1', input: 'git push -f\n' },
    });
    expect(claude.ok && claude.input.tool_input).toEqual({ command: 'git push -f\n' });
    expect(
      parseCopilot(pre('write_bash', { sessionId: 'b1', input: 'git push --forcX{backspace}e{enter}' })),
    ).toMatchObject({
      ok: false,
      problem: expect.stringContaining('edit, complete or recall'),
    });
    expect(parseCopilot(pre('write_bash', { sessionId: 'b1' }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"command"'),
    });
    const read = parseCopilot(pre('read_bash', { sessionId: 'b1' }));
    expect(read.ok && read.input.tool_name).toBe('read_bash');
  });

  it('two different file paths under alias keys are refused', () => {
    expect(
      parseCopilot(pre('create', { path: 'a.txt', file_path: '.github/hooks/x.json', file_text: '' })),
    ).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"path" and "file_path"'),
    });
  });
});

describe('Copilot CLI answers', () => {
  it('deny with its reason; a pass is {} (no decision), with context when there is some', () => {
    expect(shapeCopilot({ kind: 'deny', reason: 'held' }, 'preToolUse').json).toEqual({
      permissionDecision: 'deny',
      permissionDecisionReason: 'held',
    });
    expect(shapeCopilot({ kind: 'pass' }, 'preToolUse').json).toEqual({});
    expect(shapeCopilot({ kind: 'pass', context: 'accepted' }, 'preToolUse').json).toEqual({
      additionalContext: 'accepted',
    });
    expect(shapeCopilot({ kind: 'noted', context: 'obs' }, 'postToolUse').json).toEqual({
      additionalContext: 'obs',
    });
  });
});

describe('Copilot CLI prompt and session events', () => {
  it('userPromptSubmitted and sessionStart, named or implied by a prompt or a source with no tool', () => {
    const named = parseCopilot({
      hookEventName: 'userPromptSubmitted',
      sessionId: 's1',
      cwd: '/r',
      prompt: 'go',
    });
    expect(named).toMatchObject({
      ok: true,
      input: { hook_event_name: 'UserPromptSubmit', prompt: 'go', cwd: '/r' },
    });
    const implied = parseCopilot({ sessionId: 's1', timestamp: 1, cwd: '/r', prompt: 'go' });
    expect(implied).toMatchObject({ ok: true, event: 'userPromptSubmitted' });
    const start = parseCopilot({
      sessionId: 's1',
      timestamp: 1,
      cwd: '/r',
      source: 'new',
      initialPrompt: 'x',
    });
    expect(start).toMatchObject({
      ok: true,
      event: 'sessionStart',
      input: { hook_event_name: 'SessionStart', source: 'new' },
    });
    // The Claude spelling reads the snake_case shape.
    const claude = parseCopilot({ hook_event_name: 'UserPromptSubmit', session_id: 's1', prompt: 'go' });
    expect(claude).toMatchObject({ ok: true, input: { hook_event_name: 'UserPromptSubmit', prompt: 'go' } });
    // A tool call that also carries a "prompt" argument stays a tool call.
    const tool = parseCopilot({
      sessionId: 's1',
      toolName: 'bash',
      toolArgs: { command: 'ls' },
      prompt: 'p',
    });
    expect(tool).toMatchObject({ ok: true, event: 'preToolUse' });
  });
  it('never a permission decision on a session event', () => {
    expect(shapeCopilot({ kind: 'deny', reason: 'x' }, 'userPromptSubmitted').json).toEqual({
      additionalContext: 'x',
    });
  });
});
