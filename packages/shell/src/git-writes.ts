// The directories a git command creates: `git clone URL [DIR]` (DIR, or the name git derives from
// the URL), `git worktree add PATH`, `git init DIR`, and `--separate-git-dir DIR` of clone/init;
// and the work tree `git apply` writes into.
// Judged as any write is, so a clone or worktree outside the project (`git clone x ../other`) is a
// write outside it. `git init` without a directory reinitialises where it runs and is not counted.
import { posix } from 'node:path';

/** Value options of clone, init and worktree add (their values are not operands). */
const VALUES = new Set([
  '-b',
  '--branch',
  '-o',
  '--origin',
  '--depth',
  '--reference',
  '--reference-if-able',
  '-c',
  '--config',
  '--template',
  '--separate-git-dir',
  '-u',
  '--upload-pack',
  '--filter',
  '-j',
  '--jobs',
  '--shallow-since',
  '--shallow-exclude',
  '--server-option',
  '--bundle-uri',
  '--ref-format',
  '--object-format',
  '--shared',
  '-B',
  '--reason',
  '--initial-branch',
]);

/**
 * Paths written by `git SUB ARGS` (argv from the subcommand on), each with its index in `args`
 * (-1 when derived from a URL). `base` is the directory `-C` moved to, relative to where git runs.
 */
export function gitWrites(
  args: readonly string[],
  base: string,
  /** Reads a patch file named by the command (relative to where git runs); undefined when it cannot. */
  read?: (path: string) => string | undefined,
): Array<{ text: string; at: number }> {
  const sub = args[0];
  // `git apply` writes the files its patch names (as `patch` does): the work tree they lie under.
  // `--check`, `--stat`, `--numstat`, `--summary` only read; `--cached` writes the index only.
  if (sub === 'apply') {
    const reads = args.some((a) => /^--(check|stat|numstat|summary|cached)$/.test(a));
    if (reads) return [];
    // The files the patches name, when every patch can be read; else the whole work tree.
    const named = read === undefined ? undefined : appliedFiles(args, read);
    const texts = named ?? ['.'];
    return texts.map((t) => ({ text: base === '' ? t : posix.join(base, t), at: -1 }));
  }
  if (sub !== 'clone' && sub !== 'init' && sub !== 'worktree') return [];
  let start = 1;
  if (sub === 'worktree') {
    if (args[1] !== 'add') return [];
    start = 2;
  }
  const operands: number[] = [];
  const out: Array<{ text: string; at: number }> = [];
  let rest = false;
  for (let k = start; k < args.length; k++) {
    const arg = args[k] as string;
    if (rest || arg === '-' || !arg.startsWith('-')) operands.push(k);
    else if (arg === '--') rest = true;
    else if (arg.startsWith('--separate-git-dir=')) out.push({ text: arg.slice(19), at: k });
    else if (VALUES.has(arg)) {
      if (arg === '--separate-git-dir' && args[k + 1] !== undefined)
        out.push({ text: args[k + 1] as string, at: k + 1 });
      k++;
    }
  }
  const first = operands[0];
  if (sub === 'clone') {
    const dir = operands[1];
    if (dir !== undefined) out.push({ text: args[dir] as string, at: dir });
    else if (first !== undefined) {
      // git's "humanish" name: the last path component of the URL, without `.git` or `/.git`.
      const name = posix.basename(
        (args[first] as string)
          .replace(/(\/\.git)?\/*$/, '')
          .replace(/\.git$/, '')
          .replace(/^.*:/, ''),
      );
      if (name !== '' && name !== '.' && name !== '..') out.push({ text: name, at: -1 });
    }
  } else if (first !== undefined) out.push({ text: args[first] as string, at: first });
  return out.map((w) => ({
    ...w,
    text: base === '' || w.text.startsWith('/') || w.text.startsWith('~') ? w.text : posix.join(base, w.text),
  }));
}

/** Options of `git apply` that take a value. */
const APPLY_VALUES = new Set(['--exclude', '--include', '-C', '--whitespace', '--directory']);

/**
 * The files `git apply PATCH…` writes: the new names of every file its patches touch (`+++ b/x`,
 * `rename to`, `copy to`), with `-pN` components stripped (1 by default) and `--directory` put in
 * front; undefined when a patch comes from stdin or cannot be read, or a name cannot be told.
 */
function appliedFiles(
  args: readonly string[],
  read: (path: string) => string | undefined,
): string[] | undefined {
  let strip = 1;
  let directory = '';
  const patches: string[] = [];
  for (let k = 1; k < args.length; k++) {
    const arg = args[k] as string;
    const p = /^-p(\d+)$/.exec(arg);
    if (p) strip = Number(p[1]);
    else if (arg.startsWith('--directory=')) directory = arg.slice(12);
    else if (arg === '--directory') directory = args[++k] ?? '';
    else if (APPLY_VALUES.has(arg)) k++;
    else if (arg === '-') return undefined;
    else if (!arg.startsWith('-')) patches.push(arg);
  }
  if (patches.length === 0) return undefined;
  const out = new Set<string>();
  for (const patch of patches) {
    const text = read(patch);
    if (text === undefined) return undefined;
    for (const line of text.split('\n')) {
      let name: string | undefined;
      const plus = /^\+\+\+ (.+?)(\t.*)?\r?$/.exec(line);
      if (plus) {
        if (plus[1] === '/dev/null') continue;
        name = (plus[1] as string).split('/').slice(strip).join('/');
      }
      const moved = /^(rename|copy) to (.+?)\r?$/.exec(line);
      if (moved) name = moved[2] as string;
      if (name === undefined) continue;
      // A quoted name (C-style escapes) or one stripped to nothing cannot be told here.
      if (name === '' || name.startsWith('"')) return undefined;
      out.add(directory === '' ? name : posix.join(directory, name));
    }
  }
  return out.size === 0 ? undefined : [...out];
}
