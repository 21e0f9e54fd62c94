// The pre-push input as facts: each update's kind, and the command that makes exactly these updates.
import { describe, expect, it } from 'vitest';
import { parsePushLines, pushCommand, refspec, updateKind } from './git-push-updates.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const Z = '0'.repeat(40);

describe('parsePushLines', () => {
  it('reads git lines and refuses anything else with a line number', () => {
    expect(parsePushLines(`refs/heads/main ${A} refs/heads/main ${B}\n`)).toEqual({
      ok: true,
      updates: [{ localRef: 'refs/heads/main', localSha: A, remoteRef: 'refs/heads/main', remoteSha: B }],
    });
    expect(parsePushLines('')).toEqual({ ok: true, updates: [] });
    const bad = parsePushLines(`refs/heads/main ${A} refs/heads/main\n`);
    expect(bad).toMatchObject({ ok: false, problem: expect.stringContaining('line 1') });
    expect(parsePushLines(`refs/heads/main $(rm) refs/heads/main ${B}`).ok).toBe(false);
  });
});

describe('updateKind', () => {
  const u = (localSha: string, remoteSha: string) => ({
    localRef: 'refs/heads/main',
    localSha,
    remoteRef: 'refs/heads/main',
    remoteSha,
  });
  it('deletion, creation, fast-forward, force; a history that cannot be read counts as force', () => {
    expect(updateKind(u(Z, B), () => true)).toBe('delete');
    expect(updateKind(u(A, Z), () => false)).toBe('create');
    expect(updateKind(u(A, B), () => true)).toBe('fast-forward');
    expect(updateKind(u(A, B), () => false)).toBe('force');
    expect(updateKind(u(A, B), () => undefined)).toBe('force');
  });
});

describe('pushCommand', () => {
  it('writes one refspec per update, forced with +, deletions as :dst, quoted for the shell', () => {
    const update = (localRef: string, remoteRef: string) => ({
      localRef,
      localSha: A,
      remoteRef,
      remoteSha: B,
    });
    expect(refspec(update('refs/heads/main', 'refs/heads/main'), 'force')).toBe('+main:main');
    expect(refspec(update('HEAD', 'refs/heads/release'), 'fast-forward')).toBe('HEAD:release');
    expect(refspec(update('refs/tags/v1', 'refs/tags/v1'), 'create')).toBe('refs/tags/v1:refs/tags/v1');
    expect(
      pushCommand('origin', [
        { update: update('refs/heads/main', 'refs/heads/main'), kind: 'force' },
        { update: update('(delete)', 'refs/heads/old topic'), kind: 'delete' },
      ]),
    ).toBe("git push origin +main:main ':old topic'");
  });
});
