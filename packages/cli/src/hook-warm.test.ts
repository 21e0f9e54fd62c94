// The snapshot's warm-up compiles only the code it reaches. Each warm call must go the whole way a
// real one does — through the store's own code and the repository in memory — and not stop at the
// first read, as it did against a store that failed every call.
import { runClaudeCodeHook } from '@tollgate/hooks';
import { standInSqliteStore } from '@tollgate/store';
import { describe, expect, it } from 'vitest';
import { warmDeps, warmHook, warmInput } from './hook-entry.js';
import { loadPolicyFor } from './policy-loader.js';
import { DEFAULT_POLICIES, FILES_POLICY } from './runtime.js';

const policy = loadPolicyFor([FILES_POLICY, ...DEFAULT_POLICIES], undefined);

async function decide(command: string) {
  const store = await standInSqliteStore();
  try {
    return await runClaudeCodeHook(warmInput('PreToolUse', 'Bash', { command }), async () => ({
      deps: warmDeps(policy, store),
      close: async () => {},
    }));
  } finally {
    await store.close();
  }
}

describe('the hook warm-up', () => {
  it('refuses a force-push with its rails, not as an unavailable gate', async () => {
    const out = await decide('git push --force origin main');
    const reason = String(out.hookSpecificOutput?.permissionDecisionReason);
    expect(out.hookSpecificOutput?.permissionDecision).toBe('deny');
    expect(reason).toMatch(/held this call: it is irreversible/);
    expect(reason).not.toMatch(/unavailable/);
  });

  it('resolves through the repository in memory: its alias and its script are read', async () => {
    expect((await decide('git st')).hookSpecificOutput?.permissionDecision).toBeUndefined();
    expect((await decide('bash scripts/check.sh')).hookSpecificOutput?.permissionDecision).toBeUndefined();
    // A script that is not there cannot be judged, so running it is gated.
    expect((await decide('bash scripts/missing.sh')).hookSpecificOutput?.permissionDecision).toBe('deny');
  });

  it('runs to the end', async () => {
    await expect(warmHook()).resolves.toBeUndefined();
  });
});
