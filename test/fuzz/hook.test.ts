// Fuzzing the Claude Code hook's stdin (runClaudeCodeHook over bytes, in-process on a real SQLite
// store): random bytes, arbitrary JSON and hook inputs of every event with hostile fields and tool
// responses. Properties: it always answers a hook output (never throws), one Claude Code can read
// (an event name, a decision only from its set), and nothing it shows the model holds a control, bidi
// or line-separator character. test/sanitise-boundary.test.ts covers the texts of well-formed calls;
// this one covers the shape of the input itself.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGate, type Gate, loadPolicy, type Store } from '@tollgate/core';
import { type HookOutput, type HookRuntime, parseHookInput, runClaudeCodeHook } from '@tollgate/hooks';
import { openStore } from '@tollgate/store';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyText, forbiddenIn, holds, nastyJson, nastyString } from './support.js';

let dir: string;
let store: Store;
let gate: Gate;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-hook-'));
  store = await openStore(join(dir, 'gate.db'));
  gate = createGate({ policy: loadPolicy(['builtin:shell', 'builtin:mcp']), store, channel: 'claude-code' });
});
afterAll(async () => {
  await gate.flush();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const runtime = async (): Promise<HookRuntime> => ({
  deps: { gate, store, self: [process.execPath, '/opt/tollgate/bin/tollgate.js'], storeEnv: {}, cwd: dir },
  close: async () => {},
});

const EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'UserPromptSubmit',
  'SessionStart',
  'Stop',
  'Notification',
];
const toolInput = fc.oneof(
  fc.record({ command: fc.oneof(anyText, nastyString(80)), description: anyText }, { requiredKeys: [] }),
  fc.record(
    { file_path: anyText, content: anyText, old_string: anyText, new_string: anyText },
    {
      requiredKeys: [],
    },
  ),
  fc.dictionary(anyText, nastyJson, { maxKeys: 4 }),
  nastyJson,
);
const hookInput = fc.record(
  {
    session_id: fc.oneof(fc.constantFrom('fz-1', 'fz-2'), anyText),
    transcript_path: anyText,
    cwd: fc.oneof(fc.constant('/tmp'), anyText),
    permission_mode: fc.constantFrom('default', 'plan', 'bypassPermissions'),
    hook_event_name: fc.oneof(fc.constantFrom(...EVENTS), anyText),
    tool_name: fc.oneof(
      fc.constantFrom(
        'Bash',
        'Read',
        'Write',
        'Edit',
        'Glob',
        'mcp__fs__write_file',
        'mcp__fs__read_text_file',
      ),
      anyText,
    ),
    tool_input: toolInput,
    tool_response: fc.oneof(anyText, nastyJson, fc.record({ stdout: anyText, stderr: anyText })),
    tool_use_id: anyText,
    prompt: anyText,
  },
  { requiredKeys: ['hook_event_name'] },
);
const stdin = fc.oneof(
  { weight: 4, arbitrary: hookInput.map((i) => JSON.stringify(i)) },
  { weight: 1, arbitrary: nastyJson.map((v) => JSON.stringify(v) ?? 'null') },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')) },
  { weight: 1, arbitrary: hookInput.map((i) => JSON.stringify(i).slice(0, -3)) },
);

const DECISIONS = [undefined, 'allow', 'deny'];

function wellFormed(out: HookOutput): void {
  expect(typeof out.hookSpecificOutput?.hookEventName).toBe('string');
  expect(DECISIONS).toContain(out.hookSpecificOutput.permissionDecision);
  expect([undefined, 'block']).toContain(out.decision);
  expect(() => JSON.stringify(out)).not.toThrow();
  expect(forbiddenIn(out)).toBeUndefined();
}

describe('fuzz: Claude Code hook stdin', () => {
  it('answers every input, from bytes, with a well-formed hook output and clean text', async () => {
    await holds(
      'hook stdin',
      fc.asyncProperty(stdin, fc.boolean(), async (text, asBytes) => {
        const body = asBytes ? Buffer.from(text, 'utf8') : text;
        wellFormed(await runClaudeCodeHook(body, runtime));
      }),
      200,
    );
  });

  it('denies a PreToolUse that cannot be read, and never lets a malformed one through', async () => {
    const broken = hookInput
      .filter((i) => i.hook_event_name === 'PreToolUse')
      .map((i) => `${JSON.stringify(i).slice(0, -1)},`);
    await holds(
      'hook unreadable PreToolUse',
      fc.asyncProperty(broken, async (text) => {
        expect(parseHookInput(text).ok).toBe(false);
        const out = await runClaudeCodeHook(text, runtime);
        wellFormed(out);
        expect(out.hookSpecificOutput.permissionDecision).not.toBe('allow');
      }),
      50,
    );
  });
});
