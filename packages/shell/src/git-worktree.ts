// Which files a git command brings into the work tree from commits: a switch to another branch or
// commit, a merge, a rebase, a cherry-pick or revert, a stash applied, a reset that keeps local
// changes, a pull of what is already fetched. A commit carries any file, and the agent can make
// one without writing the work tree (`git hash-object -w`, `update-index --cacheinfo`,
// `commit-tree`): checked out, it writes the host's settings or a start-up file the gate refuses
// to let the agent write itself. Asked of git at decision time (objects only, files.ts treeChanges).
import { posix } from 'node:path';
import type { FileView } from './files.js';
import type { ParsedOptions } from './option-model.js';

/** Files the command may write: those differing from `from` to `to` (see FileView.treeChanges). */
export interface TreeChange {
  from: string | null;
  to: string;
  mergeBase: boolean;
}

/** Options that go on with, or give up, an operation already under way: nothing new is taken in. */
const SEQUENCER = /^--(continue|abort|quit|skip|edit-todo|show-current-patch)$/;

/**
 * The comparisons whose changed files `git SUB …` writes into the work tree, or undefined when it
 * takes nothing in from a commit (or is judged by other rules: `checkout REV -- PATH`, `reset --hard`).
 * `remotes` are the configured remotes' names (a switch to `dev` may check out `origin/dev`).
 */
export function worktreeChanges(
  sub: string,
  args: readonly string[],
  read: ParsedOptions,
  remotes: readonly string[],
): TreeChange[] | 'unknown' | undefined {
  const operands = read.positionals.slice(1);
  const options = read.canonical;
  if (options.some((o) => SEQUENCER.test(o))) return undefined;
  const from = (to: string, mergeBase = false): TreeChange => ({ from: 'HEAD', to, mergeBase });
  switch (sub) {
    case 'checkout':
    case 'switch': {
      if (args.includes('--') || options.includes('--patch') || options.includes('--orphan'))
        return undefined;
      if (sub === 'checkout' && operands.length > 1) return undefined;
      const word = operands[0];
      if (word === undefined) return undefined;
      const target = word === '-' ? '@{-1}' : word;
      // A branch only a remote has is made from the remote's (git's DWIM): either may be meant.
      return [from(target), ...remotes.map((r) => from(`refs/remotes/${r}/${target}`))];
    }
    case 'merge':
      return (operands.length > 0 ? operands : ['@{upstream}']).map((c) => from(c, true));
    case 'rebase': {
      const onto = options.find((o) => o.startsWith('--onto='))?.slice('--onto='.length);
      const upstream = options.includes('--root') ? undefined : (operands[0] ?? '@{upstream}');
      return [onto, upstream].filter((r) => r !== undefined).map((r) => from(r, true));
    }
    case 'cherry-pick':
    case 'revert':
      return operands.map((c) => {
        const range = /^(.*?)(\.\.\.?)(.*)$/.exec(c);
        if (range) return { from: range[1] || 'HEAD', to: range[3] || 'HEAD', mergeBase: range[2] === '...' };
        return { from: `${c}^`, to: c, mergeBase: false };
      });
    case 'stash': {
      const action = operands[0];
      if (action !== 'apply' && action !== 'pop' && action !== 'branch') return undefined;
      const stash = (action === 'branch' ? operands[2] : operands[1]) ?? 'stash@{0}';
      const rev = /^\d+$/.test(stash) ? `stash@{${stash}}` : stash;
      // Its untracked files, when it holds any, are a third parent's tree.
      return [
        { from: `${rev}^1`, to: rev, mergeBase: false },
        { from: null, to: `${rev}^3`, mergeBase: false },
      ];
    }
    case 'reset':
      if (!options.includes('--merge') && !options.includes('--keep')) return undefined;
      return [from(operands[0] ?? 'HEAD')];
    case 'pull': {
      // What the fetch brings is not known yet: what is already fetched of it is (a branch pushed
      // from here, or fetched before).
      const [remote, branch] = operands;
      if (remote === undefined || branch === undefined) return [from('@{upstream}', true)];
      // From this repository itself: the branch is here. From another one named by its path, what it
      // holds is not fetched yet (a repository the agent made can hold anything).
      if (remote === '.') return [from(branch, true)];
      if (/^(\.|\/|~|file:)/.test(remote)) return 'unknown';
      const name = branch.replace(/^\+/, '').split(':')[0] as string;
      return [from(`refs/remotes/${remote}/${name.replace(/^refs\/heads\//, '')}`, true)];
    }
    default:
      return undefined;
  }
}

/**
 * The absolute paths the comparisons change in each work tree (`tops`) the command may run in;
 * 'unknown' when a comparison has more changes than git is read for. A revision git cannot resolve
 * changes nothing (the command fails on it too).
 */
export function changedFiles(
  files: FileView,
  tops: readonly string[],
  changes: readonly TreeChange[],
): string[] | 'unknown' {
  const out = new Set<string>();
  if (files.treeChanges === undefined) return [];
  for (const top of tops) {
    for (const change of changes) {
      const found = files.treeChanges(top, change.from, change.to, change.mergeBase);
      if (found === 'too-many') return 'unknown';
      for (const rel of found ?? []) out.add(posix.join(top, rel));
    }
  }
  return [...out];
}
