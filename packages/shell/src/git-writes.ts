// The directories a git command creates: `git clone URL [DIR]` (DIR, or the name git derives from
// the URL), `git worktree add PATH`, `git init DIR`, and `--separate-git-dir DIR` of clone/init.
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
export function gitWrites(args: readonly string[], base: string): Array<{ text: string; at: number }> {
  const sub = args[0];
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
