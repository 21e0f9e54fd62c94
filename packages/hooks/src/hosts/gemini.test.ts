import { describe, expect, it } from 'vitest';
import { parseGemini, shapeGemini } from './gemini.js';

const ev = (hook_event_name: string, tool_name: string, tool_input: Record<string, unknown>, extra = {}) => ({
  session_id: 'g1',
  transcript_path: '/t.json',
  cwd: '/repo',
  hook_event_name,
  timestamp: '2026-11-22T00:00:00Z',
  tool_name,
  tool_input,
  ...extra,
});

describe('Gemini CLI input', () => {
  it.each([
    ['run_shell_command', { command: 'git push -f', description: 'd' }, 'Bash', { command: 'git push -f' }],
    ['write_file', { file_path: '/repo/a', content: 'x' }, 'Write', { file_path: '/repo/a', content: 'x' }],
    [
      'replace',
      { file_path: '/repo/a', old_string: 'x', new_string: 'y' },
      'Edit',
      { file_path: '/repo/a', old_string: 'x', new_string: 'y' },
    ],
    ['read_file', { absolute_path: '/repo/a' }, 'Read', { file_path: '/repo/a' }],
    ['list_directory', { dir_path: '/repo' }, 'LS', { path: '/repo' }],
    ['mcp__fs__write_file', { path: '/x' }, 'mcp__fs__write_file', { path: '/x' }],
    ['save_memory', { fact: 'f' }, 'save_memory', { fact: 'f' }],
  ])('%s → %s', (tool, input, canonical, args) => {
    const parsed = parseGemini(ev('BeforeTool', tool, input));
    expect(parsed.ok && parsed.input).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_name: canonical,
      tool_input: args,
    });
  });

  it('a shell call in a `directory` runs there; AfterTool carries llmContent, or the error as a failure', () => {
    const dir = parseGemini(ev('BeforeTool', 'run_shell_command', { command: 'ls', directory: 'sub' }));
    expect(dir.ok && dir.input.cwd).toBe('/repo/sub');
    const after = parseGemini(
      ev(
        'AfterTool',
        'run_shell_command',
        { command: 'ls' },
        { tool_response: { llmContent: 'a\n', returnDisplay: 'a' } },
      ),
    );
    expect(after.ok && after.input).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: 'a\n' });
    const failed = parseGemini(
      ev('AfterTool', 'run_shell_command', { command: 'ls' }, { tool_response: { error: 'boom' } }),
    );
    expect(failed.ok && failed.input).toMatchObject({ hook_event_name: 'PostToolUseFailure', error: 'boom' });
  });

  it('names what is wrong: no session, an unknown event, a shell call with no command', () => {
    expect(parseGemini({ ...ev('BeforeTool', 'ls', {}), session_id: '' })).toMatchObject({
      ok: false,
      event: 'BeforeTool',
    });
    expect(parseGemini(ev('BeforeModel', 'x', {}))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('BeforeTool, AfterTool'),
    });
    expect(parseGemini(ev('BeforeTool', 'run_shell_command', {}))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"command"'),
    });
  });
});

describe('Gemini CLI directories and aliases', () => {
  it('an absolute dir_path is honoured, a relative one resolves in the project; bad or conflicting ones are refused', () => {
    const abs = parseGemini(
      ev('BeforeTool', 'run_shell_command', { command: 'ls', dir_path: '/home/u/.gemini' }),
    );
    expect(abs.ok && abs.input.cwd).toBe('/home/u/.gemini');
    const rel = parseGemini(ev('BeforeTool', 'run_shell_command', { command: 'ls', directory: 'sub' }));
    expect(rel.ok && rel.input.cwd).toBe('/repo/sub');
    expect(parseGemini(ev('BeforeTool', 'run_shell_command', { command: 'ls', dir_path: 3 }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"dir_path" is not a string'),
    });
    expect(
      parseGemini(ev('BeforeTool', 'run_shell_command', { command: 'ls', directory: 'a', dir_path: 'b' })),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('"directory" and "dir_path"') });
  });

  it('two different file paths under alias keys are refused; the same one twice is fine', () => {
    expect(
      parseGemini(
        ev('BeforeTool', 'write_file', { file_path: 'a.txt', path: '.gemini/settings.json', content: '' }),
      ),
    ).toMatchObject({ ok: false, problem: expect.stringContaining('"file_path" and "path"') });
    const same = parseGemini(
      ev('BeforeTool', 'write_file', { file_path: 'a.txt', path: 'a.txt', content: '' }),
    );
    expect(same.ok && same.input.tool_input).toMatchObject({ file_path: 'a.txt' });
  });
});

describe('Gemini CLI answers', () => {
  it('deny with the reason, allow for a pass, context on AfterTool', () => {
    expect(shapeGemini({ kind: 'deny', reason: 'held' }, 'BeforeTool').json).toEqual({
      decision: 'deny',
      reason: 'held',
    });
    expect(shapeGemini({ kind: 'pass' }, 'BeforeTool').json).toEqual({ decision: 'allow' });
    expect(shapeGemini({ kind: 'noted', context: 'obs' }, 'AfterTool').json).toEqual({
      hookSpecificOutput: { hookEventName: 'AfterTool', additionalContext: 'obs' },
    });
    expect(shapeGemini({ kind: 'noted' }, 'AfterTool').json).toEqual({});
  });
});

describe('Gemini CLI prompt and session events', () => {
  const base = { session_id: 'g1', transcript_path: '/t.json', cwd: '/repo', timestamp: 't' };
  it('BeforeAgent is the prompt (UserPromptSubmit); SessionStart keeps its source', () => {
    const prompt = parseGemini({ ...base, hook_event_name: 'BeforeAgent', prompt: 'ship it' });
    expect(prompt).toMatchObject({
      ok: true,
      event: 'BeforeAgent',
      input: {
        hook_event_name: 'UserPromptSubmit',
        session_id: 'g1',
        prompt: 'ship it',
        tool_name: '',
        cwd: '/repo',
      },
    });
    const start = parseGemini({ ...base, hook_event_name: 'SessionStart', source: 'resume' });
    expect(start).toMatchObject({ ok: true, input: { hook_event_name: 'SessionStart', source: 'resume' } });
  });
  it('a BeforeAgent without a prompt string is a problem, and no answer to it blocks the turn', () => {
    const bad = parseGemini({ ...base, hook_event_name: 'BeforeAgent', prompt: ['x'] });
    expect(bad).toEqual({
      ok: false,
      problem: 'the BeforeAgent input has no "prompt" string',
      event: 'BeforeAgent',
    });
    const denied = shapeGemini({ kind: 'deny', reason: 'could not read' }, 'BeforeAgent');
    expect(denied.json).toEqual({ systemMessage: 'could not read' });
    expect(shapeGemini({ kind: 'noted', context: 'Tollgate is on' }, 'SessionStart').json).toEqual({
      hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: 'Tollgate is on' },
    });
  });
});
