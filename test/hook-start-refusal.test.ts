// A hook that cannot start still answers in its host's protocol, from both entries: the plain start
// (bin/tollgate.js) and the start-up snapshot (bin/hook-snapshot.cjs), which share one answer
// (bin/start-refusal.cjs). A copy of the bin folder beside a bundle that throws as it loads: the
// answer is one JSON line that denies, names the failure, and (Codex) exits 2 with the reason on
// stderr. The snapshot carries the answer in the blob: it still refuses with the file gone.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from './support/gate.js';

const CLI = join(import.meta.dirname, '../packages/cli');
const BUNDLE = join(CLI, 'dist/hook.cjs');
const dir = tempDir('tollgate-start-refusal-');
const bin = join(dir, 'bin');
const broken = "throw new Error('bundle broken on purpose');\n";
const stdin = JSON.stringify({
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});

beforeAll(() => {
  mkdirSync(bin);
  mkdirSync(join(dir, 'dist'));
  for (const file of ['tollgate.js', 'hook-snapshot.cjs', 'start-refusal.cjs'])
    copyFileSync(join(CLI, 'bin', file), join(bin, file));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hook(host: string, nodeArgs: string[] = []) {
  const r = spawnSync(process.execPath, [...nodeArgs, join(bin, 'tollgate.js'), 'hook', host], {
    input: stdin,
    encoding: 'utf8',
  });
  const lines = r.stdout.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  return {
    status: r.status,
    stderr: r.stderr,
    answer: JSON.parse(lines[0] ?? '') as Record<string, unknown>,
  };
}

function expectRefusal(out: ReturnType<typeof hook>, host: string): void {
  const reason = String(out.answer.reason);
  expect(reason).toContain('could not start, so the tool call is refused');
  expect(reason).toContain('bundle broken on purpose');
  expect(out.answer).toMatchObject({
    decision: 'block',
    hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: reason },
  });
  if (host === 'claude-code') expect(out.answer.permission).toBeUndefined();
  else
    expect(out.answer).toMatchObject({
      permission: 'deny',
      permissionDecision: 'deny',
      agent_message: reason,
    });
  expect(out.status).toBe(host === 'codex' ? 2 : 0);
  if (host === 'codex') expect(out.stderr).toContain(reason);
}

describe('a hook that cannot start', () => {
  it('is refused in its host protocol by the plain start', () => {
    writeFileSync(join(dir, 'dist/hook.cjs'), broken);
    for (const host of ['claude-code', 'codex', 'cursor']) expectRefusal(hook(host), host);
  });

  it.skipIf(!existsSync(BUNDLE))(
    'is refused by the snapshot entry, from the blob alone (needs npm run build)',
    () => {
      // Built over the real bundle, then that bundle is replaced: the snapshot runs the one on disk.
      copyFileSync(BUNDLE, join(dir, 'dist/hook.cjs'));
      const blob = join(dir, 'hook.blob');
      const built = spawnSync(
        process.execPath,
        ['--snapshot-blob', blob, '--build-snapshot', join(bin, 'hook-snapshot.cjs')],
        { encoding: 'utf8' },
      );
      expect(built.status, built.stderr).toBe(0);
      writeFileSync(join(dir, 'dist/hook.cjs'), broken);
      rmSync(join(bin, 'start-refusal.cjs'));
      for (const host of ['claude-code', 'codex']) expectRefusal(hook(host, ['--snapshot-blob', blob]), host);
    },
  );
});
