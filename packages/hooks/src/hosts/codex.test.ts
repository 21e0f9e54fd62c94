import { describe, expect, it } from 'vitest';
import { parseCodex, shapeCodex } from './codex.js';

const pre = (tool_name: string, tool_input: Record<string, unknown>, extra = {}) => ({
  session_id: 's1',
  transcript_path: null,
  cwd: '/repo',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5-codex',
  tool_name,
  tool_input,
  tool_use_id: 'call_1',
  ...extra,
});

describe('Codex input', () => {
  it('Bash, shell and exec_command all become the canonical Bash {command}', () => {
    for (const [tool, input] of [
      ['Bash', { command: 'git push -f' }],
      ['shell', { command: ['bash', '-lc', 'git push -f'] }],
      ['exec_command', { cmd: 'git push -f' }],
    ] as const) {
      const parsed = parseCodex(pre(tool, input));
      expect(parsed.ok && parsed.input.tool_name, tool).toBe('Bash');
      expect(parsed.ok && parsed.input.tool_input, tool).toEqual({ command: 'git push -f' });
      expect(parsed.ok && parsed.input.tool_use_id).toBe('call_1');
    }
  });

  it('apply_patch is one call naming the files it writes; so is a shell argv that runs apply_patch', () => {
    const patch = '*** Begin Patch\n*** Add File: .git/hooks/pre-push\n+x\n*** End Patch';
    const direct = parseCodex(pre('apply_patch', { input: patch }));
    expect(direct.ok && direct.input).toMatchObject({
      tool_name: 'apply_patch',
      host_tool_name: 'apply_patch',
      tool_input: { patch, files: ['.git/hooks/pre-push'] },
    });
    const viaShell = parseCodex(pre('shell', { command: ['apply_patch', patch] }));
    expect(viaShell.ok && viaShell.input.tool_input).toEqual({ patch, files: ['.git/hooks/pre-push'] });
  });

  it('MCP tools keep their mcp__server__tool name; post events carry the response', () => {
    const mcp = parseCodex(pre('mcp__memory__delete_entities', { entityNames: ['a'] }));
    expect(mcp.ok && mcp.input.tool_name).toBe('mcp__memory__delete_entities');
    const post = parseCodex(
      pre('Bash', { command: 'ls' }, { hook_event_name: 'PostToolUse', tool_response: 'a\n' }),
    );
    expect(post.ok && post.input).toMatchObject({ hook_event_name: 'PostToolUse', tool_response: 'a\n' });
  });

  it('refuses a shell call without a command and an unknown event, naming them', () => {
    expect(parseCodex(pre('shell', { command: 7 }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"command"'),
    });
    expect(parseCodex(pre('apply_patch', {}))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('patch'),
    });
    expect(parseCodex({ ...pre('Bash', { command: 'ls' }), hook_event_name: 'Stop' })).toMatchObject({
      ok: false,
    });
  });
});

describe('Codex answers', () => {
  it('a deny is the JSON deny and exit 2 with the same reason, sanitised (an escape sequence removed), on stderr', () => {
    const answer = shapeCodex({ kind: 'deny', reason: 'held\u001b[31m' }, 'PreToolUse');
    expect(answer.exitCode).toBe(2);
    expect(answer.json).toEqual({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: 'held',
      },
    });
    expect(answer.stderr).toBe('held');
    // An event that could not be read gets the pre-tool deny.
    expect(shapeCodex({ kind: 'deny', reason: 'x' }, undefined).json).toMatchObject({
      hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny' },
    });
  });

  it('a pass is {continue: true}, granting nothing; a post event carries its context', () => {
    expect(shapeCodex({ kind: 'pass', context: 'accepted' }, 'PreToolUse')).toEqual({
      json: { continue: true },
      exitCode: 0,
    });
    expect(shapeCodex({ kind: 'noted', context: 'observation X' }, 'PostToolUse')).toEqual({
      json: {
        continue: true,
        hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'observation X' },
      },
      exitCode: 0,
    });
  });
});

describe('Codex live processes and working directories', () => {
  it('write_stdin is the shell line it types (CR, ^C, ^D end a line); line-editing keys are refused', () => {
    const typed = parseCodex(pre('write_stdin', { session_id: 3, chars: 'git push --force origin main\n' }));
    expect(typed.ok && typed.input).toMatchObject({
      tool_name: 'Bash',
      host_tool_name: 'write_stdin',
      tool_input: { command: 'git push --force origin main\n' },
    });
    const cut = parseCodex(pre('write_stdin', { session_id: 3, chars: 'echo \u0003git push -f\r' }));
    expect(cut.ok && cut.input.tool_input).toEqual({ command: 'echo \ngit push -f\n' });
    for (const chars of [
      'git push --forcX\u007fe origin main\n',
      'git push --fo\t\n',
      '\u001b[A\n',
      'x\u0015y\n',
    ])
      expect(parseCodex(pre('write_stdin', { session_id: 3, chars })), JSON.stringify(chars)).toMatchObject({
        ok: false,
        problem: expect.stringContaining('edit, complete or recall'),
      });
    expect(parseCodex(pre('write_stdin', { session_id: 3, chars: 7 }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"chars"'),
    });
  });

  it("a shell call's workdir (or exec_command's cwd) is where its paths resolve, against the session's cwd", () => {
    const abs = parseCodex(
      pre('shell', { command: ['bash', '-lc', "printf '{}' > hooks.json"], workdir: '/home/u/.codex' }),
    );
    expect(abs.ok && abs.input).toMatchObject({
      tool_name: 'Bash',
      tool_input: { command: "printf '{}' > hooks.json" },
      cwd: '/home/u/.codex',
    });
    const rel = parseCodex(pre('exec_command', { cmd: 'ls', workdir: '../other' }));
    expect(rel.ok && rel.input.cwd).toBe('/other');
    const cwd = parseCodex(pre('exec_command', { cmd: 'ls', cwd: 'sub' }));
    expect(cwd.ok && cwd.input.cwd).toBe('/repo/sub');
    const none = parseCodex(pre('shell', { command: ['ls'] }));
    expect(none.ok && none.input.cwd).toBe('/repo');
    expect(parseCodex(pre('shell', { command: ['ls'], workdir: ['/x'] }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"workdir" is not a string'),
    });
    expect(parseCodex(pre('exec_command', { cmd: 'ls', workdir: '/a', cwd: '/b' }))).toMatchObject({
      ok: false,
      problem: expect.stringContaining('"workdir" and "cwd"'),
    });
  });
});

describe('Codex session events', () => {
  it('a problem with a prompt or a session start never blocks the turn (no exit 2)', () => {
    for (const event of ['UserPromptSubmit', 'SessionStart']) {
      const answer = shapeCodex({ kind: 'deny', reason: 'could not read' }, event);
      expect(answer).toEqual({ json: { continue: true, systemMessage: 'could not read' }, exitCode: 0 });
    }
    const parsed = parseCodex({ hook_event_name: 'UserPromptSubmit', session_id: 'x1', prompt: 'go' });
    expect(parsed).toMatchObject({ ok: true, input: { hook_event_name: 'UserPromptSubmit', prompt: 'go' } });
  });
});
