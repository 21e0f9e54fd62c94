// What git commands take into the work tree from commits: which comparisons each one makes (pure),
// and the files found in real repositories in a temporary directory.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { worktreeChanges } from './git-worktree.js';
import { nodeFileView, parseShell } from './index.js';
import { readOptions } from './read-options.js';

let root: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'tollgate-worktree-')));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: { ...process.env, HOME: root, GIT_CONFIG_NOSYSTEM: '1' },
  }).toString();

function changes(command: string, remotes: string[] = []) {
  const argv = command.split(' ');
  const read = readOptions('git', argv.slice(1));
  // As runners.ts: a subcommand git's option model does not read takes nothing in.
  return read && worktreeChanges(argv[1] as string, argv.slice(1), read, remotes);
}

/** The comparisons, for a command that takes a known set in. */
function list(command: string) {
  const found = changes(command);
  if (!Array.isArray(found)) throw new Error(`${command}: ${found}`);
  return found;
}
const to = (command: string) => list(command).map((c) => c.to);

describe('the comparisons a git command takes into the work tree', () => {
  it('a switch: to the target from HEAD, or the remote branch of its name', () => {
    expect(changes('git checkout topic')).toEqual([{ from: 'HEAD', to: 'topic', mergeBase: false }]);
    expect(changes('git switch -', ['origin'])).toEqual([
      { from: 'HEAD', to: '@{-1}', mergeBase: false },
      { from: 'HEAD', to: 'refs/remotes/origin/@{-1}', mergeBase: false },
    ]);
    expect(changes('git switch --detach v1.2')).toEqual([{ from: 'HEAD', to: 'v1.2', mergeBase: false }]);
    expect(to('git checkout -b fresh main')).toEqual(['main']);
  });

  it('a merge, rebase or pull: what the other side changed since the merge base', () => {
    expect(changes('git merge topic')).toEqual([{ from: 'HEAD', to: 'topic', mergeBase: true }]);
    expect(to('git merge')).toEqual(['@{upstream}']);
    expect(to('git rebase --onto main old')).toEqual(['main', 'old']);
    expect(to('git pull origin feature')).toEqual(['refs/remotes/origin/feature']);
    expect(to('git pull . topic')).toEqual(['topic']);
    expect(changes('git pull /tmp/made-here main')).toBe('unknown');
  });

  it('a pick, a revert, a stash applied, a reset keeping local changes', () => {
    expect(changes('git cherry-pick abc123')).toEqual([{ from: 'abc123^', to: 'abc123', mergeBase: false }]);
    expect(changes('git revert a..b')).toEqual([{ from: 'a', to: 'b', mergeBase: false }]);
    expect(list('git stash pop 1').map((c) => [c.from, c.to])).toEqual([
      ['stash@{1}^1', 'stash@{1}'],
      [null, 'stash@{1}^3'],
    ]);
    expect(changes('git reset --keep HEAD~2')).toEqual([{ from: 'HEAD', to: 'HEAD~2', mergeBase: false }]);
  });

  it('nothing for commands that take nothing in, or that other rules judge', () => {
    for (const command of [
      'git checkout -- README.md',
      'git checkout main README.md',
      'git checkout -b fresh',
      'git switch --orphan empty',
      'git rebase --continue',
      'git merge --abort',
      'git reset HEAD~1',
      'git reset --hard HEAD~1',
      'git stash list',
      'git status',
    ])
      expect({ command, changes: changes(command) }).toEqual({ command, changes: undefined });
  });
});

describe('files a commit brings into the work tree', () => {
  it('are found in the repository, absolute, for a commit made without touching the work tree', () => {
    const dir = join(root, 'repo');
    mkdirSync(dir);
    git(dir, 'init', '-q', '-b', 'main');
    writeFileSync(join(dir, 'README.md'), 'r\n');
    git(dir, 'add', 'README.md');
    git(dir, 'commit', '-qm', 'init');
    // The agent's commit: a blob staged under the host's settings, never written to the work tree.
    git(dir, 'checkout', '-q', '-b', 'staged');
    const blob = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: dir, input: '{}\n' })
      .toString()
      .trim();
    git(dir, 'update-index', '--add', '--cacheinfo', `100644,${blob},.claude/settings.json`);
    git(dir, 'commit', '-qm', 'staged');
    git(dir, 'checkout', '-q', 'main');
    const worktree = (command: string) =>
      parseShell(command, { context: { cwd: dir, home: root, files: nodeFileView(), env: {} } });
    const settings = join(dir, '.claude', 'settings.json');
    for (const command of [
      'git checkout staged',
      'git merge staged',
      'git cherry-pick staged',
      'git rebase staged',
    ])
      expect({ command, changes: worktree(command).segments[0]?.worktree_changes }).toEqual({
        command,
        changes: [settings],
      });
    // A sparse checkout may remove any entry of the top; a bisection checks out what it chooses.
    expect(worktree('git sparse-checkout set src').segments[0]?.worktree_changes).toEqual(
      expect.arrayContaining([join(dir, 'README.md')]),
    );
    expect(worktree('git sparse-checkout list').segments[0]?.worktree_changes).toBeUndefined();
    expect(worktree('git bisect start HEAD HEAD~1').dynamic.map((d) => d.kind)).toContain(
      'worktree_unresolved',
    );
    expect(worktree('git bisect log').dynamic).toEqual([]);
    // A stash push is marked with its work tree, and whether it takes untracked files.
    expect(worktree('git stash -u').segments[0]?.stashes).toEqual([{ top: dir, untracked: true }]);
    expect(worktree('git stash push -m wip').segments[0]?.stashes).toEqual([{ top: dir, untracked: false }]);
    expect(worktree('git stash list').segments[0]?.stashes).toBeUndefined();
    // A revision that does not resolve changes nothing (git refuses it too); one not static is dynamic.
    expect(worktree('git checkout nowhere').segments[0]?.worktree_changes).toBeUndefined();
    expect(worktree('git checkout "$BRANCH"').dynamic.map((d) => d.kind)).toContain('worktree_unresolved');
  });
});
