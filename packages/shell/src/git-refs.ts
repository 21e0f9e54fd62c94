// Whether a word names a revision in the repository a command runs in: `git checkout X` switches to
// the branch X when there is one and overwrites the path X when there is not, so the gate asks the
// repository as git does (loose refs, packed-refs, a remote's branch git would create a local one
// from, special heads, revision syntax).
import { posix } from 'node:path';
import type { FileView } from './files.js';
import { findGitDir } from './git-config.js';

const MAX_PACKED_BYTES = 4 * 1024 * 1024;

/**
 * True when `word` names a revision git would take it for in the repository around `cwd`; false
 * when it names none; undefined when that cannot be told (no repository found, a file unreadable).
 */
export function namesRevision(
  files: FileView,
  cwd: string,
  word: string,
  /** git may take a branch only one remote has as a new local branch (off: `--no-guess`). */
  guess = true,
): boolean | undefined {
  // Revision syntax: HEAD and its kin, `@` and `@{…}`, a `:/message` search; `NAME~2`, `NAME^{}`,
  // `NAME@{1}`, `NAME:path` are revisions when NAME is one (`notes.txt~` is a path when no such ref exists).
  if (/^(HEAD|FETCH_HEAD|ORIG_HEAD|MERGE_HEAD|@)$|^@\{|^:/.test(word)) return true;
  const base = /^([^~^@:]+)[~^@:]/.exec(word)?.[1];
  if (base !== undefined) return namesRevision(files, cwd, base, guess);
  if (word.startsWith('-') || word.includes('..') || word.includes('\0')) return false;
  const out = { entries: [], unreadable: false };
  const gitDir = findGitDir(files, cwd, out);
  if (gitDir === undefined) return out.unreadable ? undefined : false;
  const commondir = files.readText(posix.join(gitDir, 'commondir'), 4096)?.trim();
  const common = commondir ? posix.resolve(gitDir, commondir) : gitDir;
  const candidates = [`refs/${word}`, `refs/heads/${word}`, `refs/tags/${word}`, `refs/remotes/${word}`];
  // A loose ref is a file: `refs/heads/feature` is a directory when only `feature/x` exists.
  const loose = (ref: string) => {
    const path = posix.join(common, ref);
    return files.realpath(path) !== undefined && files.readdir(path) === undefined;
  };
  // An abbreviated object name may name a commit: the object store is not read, so it cannot be told.
  const hex = /^[0-9a-f]{4,64}$/i.test(word) ? undefined : false;
  if (candidates.some(loose)) return true;
  // Remotes with a branch of that name: git takes the word as a new branch off it only when exactly
  // one remote has it (and guessing is on); with two it is no revision, and a path if there is one.
  const remotes = new Set<string>();
  for (const r of files.readdir(posix.join(common, 'refs', 'remotes')) ?? [])
    if (loose(`refs/remotes/${r}/${word}`)) remotes.add(r);
  const packedPath = posix.join(common, 'packed-refs');
  const packed = files.realpath(packedPath) === undefined ? '' : files.readText(packedPath, MAX_PACKED_BYTES);
  if (packed === undefined) return undefined;
  const known = new Set(candidates);
  for (const line of packed.split('\n')) {
    const ref = line.slice(line.indexOf(' ') + 1).trim();
    if (known.has(ref)) return true;
    const m = /^refs\/remotes\/([^/]+)\/(.+)$/.exec(ref);
    if (m && m[2] === word) remotes.add(m[1] as string);
  }
  if (guess && remotes.size === 1) return true;
  return hex;
}

/**
 * The branch checked out in the repository around `cwd` (the work tree's own HEAD), as `git branch
 * --show-current` prints it: undefined when HEAD is detached, or unreadable.
 */
export function currentBranch(files: FileView, cwd: string, explicitGitDir?: string): string | undefined {
  const out = { entries: [], unreadable: false };
  // `--git-dir`/`GIT_DIR` names the repository whatever the directory.
  const gitDir =
    explicitGitDir !== undefined ? posix.resolve(cwd, explicitGitDir) : findGitDir(files, cwd, out);
  if (gitDir === undefined) return undefined;
  const head = files.readText(posix.join(gitDir, 'HEAD'), 4096);
  const m = head === undefined ? null : /^ref: refs\/heads\/(\S+)\s*$/.exec(head);
  return m ? (m[1] as string) : undefined;
}
