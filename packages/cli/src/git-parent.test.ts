// The git command line a hook runs under, from a /proc laid out by the test.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parentGitCommand } from './git-parent.js';

function proc(pid: number, argv: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-proc-'));
  mkdirSync(join(dir, String(pid)));
  writeFileSync(join(dir, String(pid), 'cmdline'), `${argv.join('\0')}\0`);
  return dir;
}

describe('parentGitCommand', () => {
  it('writes the program as git whatever path ran it, and quotes the words', () => {
    expect(parentGitCommand(7, proc(7, ['/usr/bin/git', 'push', '--force', 'origin', 'main']))).toBe(
      'git push --force origin main',
    );
    expect(parentGitCommand(7, proc(7, ['git', 'push', 'origin', 'a b']))).toBe("git push origin 'a b'");
  });

  it('is undefined when the parent is not git or cannot be read', () => {
    expect(parentGitCommand(7, proc(7, ['bash', '-c', 'git push']))).toBeUndefined();
    expect(parentGitCommand(7, proc(7, ['/usr/bin/git-wrapper', 'push']))).toBeUndefined();
    expect(parentGitCommand(8, proc(7, ['git', 'push']))).toBeUndefined();
  });
});
