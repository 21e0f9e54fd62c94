// Bad input to `tollgate hook claude-code`, through the real binary: every case gets one JSON
// decision on stdout with exit 0 — a deny that names the problem — never a crash or silence.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lastJson, tollgate } from '../packages/cli/src/testing/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Answer {
  decision?: string;
  reason?: string;
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
  };
}

const pre = (command: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: 'bad-input',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_1',
    ...extra,
  });

async function answer(input: string | Uint8Array, args = ['hook', 'claude-code']): Promise<Answer> {
  const run = await tollgate(args, { cwd: dir, input });
  expect(run.code).toBe(0);
  expect(run.stdout.trim().split('\n')).toHaveLength(1);
  return lastJson<Answer>(run.stdout);
}

function expectDeny(a: Answer, why: RegExp): void {
  expect(a.hookSpecificOutput.hookEventName).toBe('PreToolUse');
  expect(a.hookSpecificOutput.permissionDecision).toBe('deny');
  expect(a.hookSpecificOutput.permissionDecisionReason).toMatch(why);
}

describe('tollgate hook claude-code refuses what it cannot show safe, and says why', () => {
  it('stdin that is not JSON', async () => {
    const a = await answer('this is not json');
    expectDeny(a, /not valid JSON/);
    expect(a.decision).toBe('block');
  });

  it('empty stdin', async () => {
    expectDeny(await answer(''), /empty/);
  });

  it('invalid UTF-8 on stdin', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"hook_event_name":"PreToolUse","x":"'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    expectDeny(await answer(bytes), /not valid UTF-8/);
  });

  it('an unknown hook event', async () => {
    const a = await answer(pre('ls', { hook_event_name: 'PreCompactify' }));
    expect(a.hookSpecificOutput.hookEventName).toBe('PreCompactify');
    expect(a.hookSpecificOutput.permissionDecision).toBe('deny');
    expect(a.decision).toBe('block');
    expect(a.reason).toMatch(/"PreCompactify" is not one tollgate handles/);
  });

  it('a payload without a session id or tool input', async () => {
    expectDeny(await answer(pre('ls', { session_id: '' })), /session_id/);
    expectDeny(await answer(pre('ls', { tool_input: 'rm -rf /' })), /tool_input/);
  });

  it('an empty command and a missing command', async () => {
    expectDeny(await answer(pre('')), /empty/);
    expectDeny(await answer(pre(undefined)), /no "command" string/);
  });

  it('a 1 MB command (the payload is over the input limit)', async () => {
    expectDeny(await answer(pre(`echo ${'a'.repeat(1024 * 1024)}`)), /bytes; the limit is/);
  });

  it('a command just under the input limit, too long to parse', async () => {
    const a = await answer(pre(`rm ${'x'.repeat(600 * 1024)}`));
    expectDeny(a, /unknown-dynamic|cannot be resolved statically|irreversible/);
  });

  it('NUL bytes in the command', async () => {
    expectDeny(await answer(pre('ls\u0000; rm -rf /')), /cannot be resolved statically|irreversible/);
  });

  it('unbalanced quotes', async () => {
    expectDeny(await answer(pre('rm -rf "/srv/data')), /irreversible/);
    // What a shell makes of an unterminated quote cannot be shown safe: denied, saying to fix the quoting.
    expectDeny(await answer(pre('echo "unterminated; rm -rf ~')), /does not parse.*fix the quoting/);
  });

  it('deeply nested JSON', async () => {
    expectDeny(await answer(`${'['.repeat(5000)}${']'.repeat(5000)}`), /nests \d+ levels deep/);
  });

  it('a missing or unknown host', async () => {
    expectDeny(await answer(pre('ls'), ['hook']), /needs a host/);
    expectDeny(await answer(pre('ls'), ['hook', 'windsurf']), /needs a host/);
  });

  it('a store that cannot be opened denies a gated call as gate_unavailable', async () => {
    const notADir = join(dir, 'plain-file');
    writeFileSync(notADir, 'x');
    const run = await tollgate(['hook', 'claude-code'], {
      cwd: dir,
      env: { TOLLGATE_DB: join(notADir, 'store.db') },
      input: pre('git push --force origin main'),
    });
    expect(run.code).toBe(0);
    expectDeny(lastJson<Answer>(run.stdout), /gate_unavailable/);
  });
});
