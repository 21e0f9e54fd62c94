// The hook process loads its bundle through V8's code cache: the first run writes the cache, and
// later runs answer the same with it in place (a stale or foreign cache is rejected by V8 and rewritten).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'packages/cli/bin/tollgate.js');
const CACHE = join(ROOT, 'packages/cli/dist/.v8-cache');
let dir: string;

const hook = (command: string) => {
  const input = JSON.stringify({
    session_id: 'cache-test',
    transcript_path: '/dev/null',
    cwd: dir,
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: 'toolu_cache',
  });
  const r = spawnSync(process.execPath, [BIN, 'hook', 'claude-code'], { input, cwd: dir, encoding: 'utf8' });
  expect(r.status).toBe(0);
  return JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision?: string } };
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tollgate-cache-'));
  execFileSync('git', ['init', '-q', dir]);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the hook bundle code cache', () => {
  it('is written on the first run and used, or replaced when corrupt, after', () => {
    expect(existsSync(join(ROOT, 'packages/cli/dist/hook.cjs'))).toBe(true);
    // The code cache only: the hook's start-up snapshot (hook-snapshot.test.ts) lives here too.
    for (const f of existsSync(CACHE) ? readdirSync(CACHE) : [])
      if (f.endsWith('.bin')) rmSync(join(CACHE, f), { force: true });
    expect(hook('git push --force origin main').hookSpecificOutput.permissionDecision).toBe('deny');
    const written = readdirSync(CACHE).filter((f) => f.endsWith('.bin'));
    expect(written).toHaveLength(1);
    expect(hook('git push --force origin main').hookSpecificOutput.permissionDecision).toBe('deny');
    writeFileSync(join(CACHE, written[0]!), 'not a V8 code cache');
    expect(hook('git push --force origin main').hookSpecificOutput.permissionDecision).toBe('deny');
    expect(hook('git status').hookSpecificOutput.permissionDecision).toBeUndefined();
  });
});
