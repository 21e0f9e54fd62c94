// A remote the command names itself: defined (for core to record), and relied on by a push.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { remotesNamed } from './git-remotes.js';
import { nodeFileView, parseShell } from './index.js';

const repo = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-remotes-')));
execFileSync('git', ['init', '-q'], { cwd: repo });
afterAll(() => rmSync(repo, { recursive: true, force: true }));
const facts = (command: string) =>
  parseShell(command, { context: { cwd: repo, files: nodeFileView(), env: {} } });

describe('remote names a command chooses', () => {
  it.each([
    ['add', ['drop', 'https://x.example/r.git'], ['drop']],
    ['set-url', ['origin', 'https://x.example/r.git'], ['origin']],
    ['rename', ['old', 'origin'], ['origin']],
    ['remove', ['origin'], []],
    [undefined, [], []],
  ])('git remote %s %j names %j', (verb, args, names) => {
    expect(remotesNamed(verb, args)).toEqual(names);
  });

  it('are defined by the command, and a push relies on its remote by name', () => {
    expect(facts('git remote add -f drop ../x.git').defines).toEqual([`git-remote:${repo}:drop`]);
    expect(facts('git push drop topic').relies_on).toContain(`git-remote:${repo}:drop`);
    expect(facts('git push').relies_on).toContain(`git-remote:${repo}:origin`);
    // A URL or a path is a destination of its own, judged by git.push.elsewhere.
    expect(facts('git push ../x.git topic').relies_on ?? []).toEqual([]);
  });

  it("a clone's remote is the command's choice: a push from the clone relies on it", () => {
    expect(facts('git clone -q https://x.example/r.git c1').defines).toEqual([
      `git-remote:${repo}/c1:origin`,
    ]);
    expect(facts('git clone -o up ../x.git c2').defines).toEqual([`git-remote:${repo}/c2:up`]);
    const kinds = (command: string) => facts(command).dynamic.map((d) => d.kind);
    expect(kinds('git clone ../x.git c3 && git -C c3 push origin HEAD:refs/heads/x')).toContain(
      'unresolved_config',
    );
    expect(kinds('git clone ../x.git c4 && cd c4 && git push')).toContain('unresolved_config');
  });

  it('a push to a remote the same command defined is not resolved', () => {
    const kinds = (command: string) => facts(command).dynamic.map((d) => d.kind);
    expect(kinds('git remote add drop ../x.git && git push drop HEAD')).toContain('unresolved_config');
    expect(kinds('git remote set-url origin ../x.git; git push')).toContain('unresolved_config');
    expect(kinds('git remote add drop ../x.git && git push origin HEAD')).toEqual([]);
  });
});
