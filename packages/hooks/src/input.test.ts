// Hook input checks and response text: what each malformed input is called, and the text that
// evidence quotes are matched against.
import { describe, expect, it } from 'vitest';
import { parseHookInput } from './input.js';
import { responseText } from './reads.js';

const ok = {
  session_id: 's',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
};

describe('parseHookInput', () => {
  it('accepts a real-shaped input', () => {
    expect(parseHookInput(JSON.stringify({ ...ok, cwd: '/r', tool_use_id: 't' }))).toMatchObject({
      ok: true,
      input: { cwd: '/r' },
    });
  });

  it('names each problem', () => {
    expect(parseHookInput('[1]')).toMatchObject({ ok: false, problem: 'hook input is not a JSON object' });
    // Once "hook input", not "hook input input" (issue 14).
    expect(parseHookInput('{')).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/^hook input is not valid JSON/),
    });
    expect(parseHookInput(new Uint8Array([0xff]))).toMatchObject({ ok: false, code: 'input_invalid_utf8' });
    expect(parseHookInput(JSON.stringify({ ...ok, hook_event_name: 'Stop' }))).toMatchObject({
      ok: false,
      code: 'unknown_event',
      event: 'Stop',
    });
    expect(parseHookInput(JSON.stringify({ ...ok, tool_name: 7 }))).toMatchObject({
      ok: false,
      event: 'PreToolUse',
    });
  });
});

describe('responseText', () => {
  it('reads Bash stdout and stderr, strings as they are, and string leaves of anything else', () => {
    expect(responseText({ stdout: 'out', stderr: '' })).toBe('out');
    expect(responseText({ stdout: 'out', stderr: 'err' })).toBe('out\nerr');
    expect(responseText('plain')).toBe('plain');
    expect(responseText({ type: 'text', file: { filePath: '/a', content: 'line "1"', numLines: 1 } })).toBe(
      'text\n/a\nline "1"\n1',
    );
    expect(responseText([{ type: 'text', text: 'mcp says hi' }])).toBe('text\nmcp says hi');
  });
});
