import { describe, expect, it } from 'vitest';
import { parseCursor, shapeCursor } from './cursor.js';

const base = { conversation_id: 'c1', generation_id: 'g1', workspace_roots: ['/repo'] };

describe('Cursor input', () => {
  it('beforeShellExecution is the canonical Bash, never paired by the shared generation_id, in its cwd or first workspace root', () => {
    const parsed = parseCursor({
      ...base,
      hook_event_name: 'beforeShellExecution',
      command: 'git push -f',
      cwd: '/repo/sub',
    });
    expect(parsed.ok && parsed.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      session_id: 'c1',
      tool_name: 'Bash',
      tool_input: { command: 'git push -f' },
      cwd: '/repo/sub',
    });
    // One model turn (generation) runs several calls: its id pairs none of them.
    expect(parsed.ok && parsed.input.tool_use_id).toBeUndefined();
    // Cursor's own tool events carry a per-call tool_use_id, which does pair.
    const tool = parseCursor({
      ...base,
      hook_event_name: 'postToolUse',
      tool_name: 'Read',
      tool_input: { file_path: '/repo/a' },
      tool_output: 'x',
      tool_use_id: 'tu-1',
    });
    expect(tool.ok && tool.input.tool_use_id).toBe('tu-1');
    const noCwd = parseCursor({ ...base, hook_event_name: 'beforeShellExecution', command: 'ls' });
    expect(noCwd.ok && noCwd.input.cwd).toBe('/repo');
  });

  it('MCP calls become mcp__<server>__<tool> (tool_input may be a JSON string); agent tools map to canonical names', () => {
    const mcp = parseCursor({
      ...base,
      hook_event_name: 'beforeMCPExecution',
      tool_name: 'delete_entities',
      tool_input: '{"entityNames":["a"]}',
      server: 'memory',
    });
    expect(mcp.ok && mcp.input).toMatchObject({
      tool_name: 'mcp__memory__delete_entities',
      tool_input: { entityNames: ['a'] },
    });
    const unnamed = parseCursor({
      ...base,
      hook_event_name: 'beforeMCPExecution',
      tool_name: 'write_file',
      tool_input: {},
    });
    expect(unnamed.ok && unnamed.input.tool_name).toBe('mcp__cursor__write_file');
    const write = parseCursor({
      ...base,
      hook_event_name: 'preToolUse',
      tool_name: 'Write',
      tool_input: { path: '/repo/.envrc', contents: 'x' },
    });
    expect(write.ok && write.input).toMatchObject({
      tool_name: 'Write',
      tool_input: { file_path: '/repo/.envrc', content: 'x' },
    });
    const del = parseCursor({
      ...base,
      hook_event_name: 'preToolUse',
      tool_name: 'Delete',
      tool_input: { path: '/repo/a' },
      tool_use_id: 't9',
    });
    expect(del.ok && del.input).toMatchObject({
      tool_name: 'delete_file',
      tool_input: { path: '/repo/a' },
      tool_use_id: 't9',
    });
  });

  it('after events carry what ran: shell output, MCP result, a file edit', () => {
    const shell = parseCursor({
      ...base,
      hook_event_name: 'afterShellExecution',
      command: 'ls',
      output: 'a\n',
      duration: 3,
    });
    expect(shell.ok && shell.input).toMatchObject({
      hook_event_name: 'PostToolUse',
      tool_response: { stdout: 'a\n' },
    });
    const edit = parseCursor({
      ...base,
      hook_event_name: 'afterFileEdit',
      file_path: '/repo/a',
      edits: [{ old_string: 'x', new_string: 'y' }],
    });
    expect(edit.ok && edit.input).toMatchObject({ tool_name: 'Edit', tool_input: { file_path: '/repo/a' } });
  });

  it('leaves shell and MCP calls in preToolUse/postToolUse to their own events (decided once)', () => {
    const shell = parseCursor({
      ...base,
      hook_event_name: 'preToolUse',
      tool_name: 'Shell',
      tool_input: { command: 'git push -f' },
    });
    expect(shell).toMatchObject({ ok: true, elsewhere: true });
    const mcp = parseCursor({
      ...base,
      hook_event_name: 'postToolUse',
      tool_name: 'MCP:delete_entities',
      tool_input: {},
    });
    expect(mcp).toMatchObject({ ok: true, elsewhere: true });
    const own = parseCursor({ ...base, hook_event_name: 'beforeShellExecution', command: 'git push -f' });
    expect(own.ok && 'elsewhere' in own).toBe(false);
    const write = parseCursor({
      ...base,
      hook_event_name: 'preToolUse',
      tool_name: 'Write',
      tool_input: { path: '/a' },
    });
    expect(write.ok && 'elsewhere' in write).toBe(false);
  });

  it('refuses two different file paths under alias keys', () => {
    expect(
      parseCursor({
        ...base,
        hook_event_name: 'preToolUse',
        tool_name: 'Write',
        tool_input: { file_path: 'a.txt', target_file: '.cursor/hooks.json', contents: '' },
      }),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('"file_path" and "target_file"') });
  });

  it('names what is wrong', () => {
    expect(parseCursor({ ...base, hook_event_name: 'beforeShellExecution' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"command"'),
    });
    expect(parseCursor({ hook_event_name: 'beforeShellExecution', command: 'ls' })).toMatchObject({
      ok: false,
      problem: expect.stringContaining('conversation_id'),
    });
    expect(
      parseCursor({ ...base, hook_event_name: 'beforeMCPExecution', tool_name: 'x', tool_input: 'nope' }),
    ).toMatchObject({ ok: false });
    expect(parseCursor({ ...base, hook_event_name: 'stop' })).toMatchObject({ ok: false, event: 'stop' });
  });
});

describe('Cursor answers', () => {
  it('deny carries user_message and agent_message; a pass is {continue: true} with no permission', () => {
    expect(shapeCursor({ kind: 'deny', reason: 'held\nmore' }, 'beforeShellExecution').json).toEqual({
      permission: 'deny',
      user_message: 'Tollgate held this call: held',
      agent_message: 'held\nmore',
    });
    expect(shapeCursor({ kind: 'pass' }, 'beforeShellExecution').json).toEqual({ continue: true });
    expect(shapeCursor({ kind: 'noted', context: 'obs' }, 'afterShellExecution').json).toEqual({});
    expect(shapeCursor({ kind: 'deny', reason: 'x' }, undefined).json).toMatchObject({ permission: 'deny' });
  });
});

describe('Cursor beforeSubmitPrompt', () => {
  it('is the prompt (UserPromptSubmit) of the conversation, and is always answered continue', () => {
    const parsed = parseCursor({
      conversation_id: 'c1',
      generation_id: 'g1',
      hook_event_name: 'beforeSubmitPrompt',
      prompt: 'ship it',
      attachments: [],
      workspace_roots: ['/repo'],
    });
    expect(parsed).toMatchObject({
      ok: true,
      input: { hook_event_name: 'UserPromptSubmit', session_id: 'c1', prompt: 'ship it', cwd: '/repo' },
    });
    expect(shapeCursor({ kind: 'deny', reason: 'x' }, 'beforeSubmitPrompt').json).toEqual({ continue: true });
    expect(shapeCursor({ kind: 'noted' }, 'beforeSubmitPrompt').json).toEqual({ continue: true });
    const bad = parseCursor({ conversation_id: 'c1', hook_event_name: 'beforeSubmitPrompt' });
    expect(bad).toMatchObject({ ok: false, problem: 'the beforeSubmitPrompt input has no "prompt" string' });
  });
});
