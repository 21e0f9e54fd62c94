// The git command a hook runs under: the command line of the hook's parent process (git runs hooks
// itself, and the hook script execs node, so the parent is `git push ...`), read from /proc. The
// program word is written `git` whatever path ran it (a shim runs the real git with argv[0] `git`),
// so it is the command a person typed and files a prediction for. Undefined off Linux, or when the
// parent is not git.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { shellLine } from '@tollgate/hooks';

export function parentGitCommand(ppid: number = process.ppid, proc = '/proc'): string | undefined {
  let argv: string[];
  try {
    argv = readFileSync(`${proc}/${ppid}/cmdline`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
  if (argv[argv.length - 1] === '') argv.pop();
  if (argv.length < 2 || basename(argv[0] ?? '') !== 'git') return undefined;
  return shellLine(['git', ...argv.slice(1)]);
}
