// The paths a call or a read names, and when two of them are about the same thing: the same path,
// a file and its own directory, or something inside a directory. Used to tell whether a read is
// evidence about what a call will change (a file overwrite is backed by a read of that file).
import { posix } from 'node:path';
import type { ShellSegment } from '@tollgate/shell';

/** Argument keys that hold paths (Claude Code's file_path, MCP filesystem's path/source/destination, …). */
const PATH_KEY =
  /^(path|paths|file|files|file_?path|notebook_?path|filename|dir|directory|source|destination|target|root|cwd|src|dest)$/i;

/** String values of path-like keys of a tool's arguments (one level of arrays and objects deep). */
export function pathsOfArgs(args: Record<string, unknown>): string[] {
  const out: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') out.push(value);
    else if (Array.isArray(value) && depth < 2) for (const v of value) visit(v, depth + 1);
    else if (value !== null && typeof value === 'object' && depth < 2)
      for (const [k, v] of Object.entries(value)) if (PATH_KEY.test(k)) visit(v, depth + 1);
  };
  for (const [key, value] of Object.entries(args)) if (PATH_KEY.test(key)) visit(value, 0);
  return out.filter((p) => p !== '');
}

/** Operands, write targets and input files of a simple command. */
export function pathsOfSegment(segment: ShellSegment): string[] {
  // git's first positional is its subcommand (`git status important`: the path is `important`).
  const operands = segment.program === 'git' ? segment.positionals.slice(1) : segment.positionals;
  const out = [...operands, ...(segment.writes ?? [])];
  for (const r of segment.redirects) if (r.target !== '' && !r.op.startsWith('<<')) out.push(r.target);
  return out.filter((p) => p !== '' && p !== '-');
}

/** Programs that list the working directory when given no path (`ls`, `find`, `du`). */
const CWD_BY_DEFAULT = new Set(['ls', 'find', 'tree', 'du', 'dir']);

/** The paths a read looks at: its operands, or the working directory for `ls`-like programs given none. */
export function pathsOfRead(segment: ShellSegment): string[] {
  const paths = pathsOfSegment(segment);
  return paths.length > 0 || !CWD_BY_DEFAULT.has(segment.program) ? paths : ['.'];
}

/** Normalised absolute path (reads and the call are taken to run in the same directory). */
function norm(path: string, cwd: string): string {
  return posix.resolve(cwd, path);
}

/** True when some read path is a call path, the directory holding one, or inside one. */
export function relatedPaths(
  callPaths: readonly string[],
  readPaths: readonly string[],
  cwd = '/.cwd',
): boolean {
  const calls = callPaths.map((p) => norm(p, cwd));
  for (const raw of readPaths) {
    const read = norm(raw, cwd);
    for (const call of calls) {
      if (read === call) return true;
      if (read.startsWith(`${call}/`)) return true; // inside a directory the call names
      if (read === posix.dirname(call) && read !== '/') return true; // the call's own directory
    }
  }
  return false;
}
