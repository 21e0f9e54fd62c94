// The file system as the shell package sees it at decision time. The hook runs where the command
// will run, so globs, `~`, `cd`, symlinks, scripts and SQL files are resolved against the real
// files. Parsing stays pure without a context; an adapter hands one in (see node-files.ts).

import { posix } from 'node:path';
import type { ShellFacts } from './types.js';

/** Read-only, bounded access to the files a command names. Every method answers undefined when it cannot. */
export interface FileView {
  /** Entry names of a directory (not `.`/`..`), or undefined when it is not a readable directory. */
  readdir(dir: string): readonly string[] | undefined;
  /** The canonical path (symlinks resolved) of an existing path, or undefined when it does not exist. */
  realpath(path: string): string | undefined;
  /**
   * What the symbolic link at `path` holds (readlink), null when a link is there that cannot be read
   * (or a bound was hit), undefined when nothing or no link is there. Resolution follows a dangling
   * link with it, as open(O_CREAT) does. A missing method sees no links.
   */
  readlink?(path: string): string | null | undefined;
  /** The text of a regular file of at most `maxBytes` bytes, or undefined (missing, unreadable, larger). */
  readText(path: string, maxBytes: number): string | undefined;
  /**
   * The first bytes (at most `maxBytes`) of a regular file, whatever its size, or undefined: tells a
   * compiled program from a script without reading it whole. A missing method reads nothing.
   */
  readHead?(path: string, maxBytes: number): string | undefined;
  /**
   * Whether a regular file is at `path` (links followed) with an execute bit set: one the kernel
   * would run as a program. Undefined when it cannot tell; a missing method answers nothing.
   */
  executable?(path: string): boolean | undefined;
  /** How many names the file at `path` has (hard links), or undefined. A missing method answers nothing. */
  links?(path: string): number | undefined;
  /**
   * When the file at `path` last changed, contents or status (its ctime, epoch ms: the kernel sets
   * it, no program can set it back), or undefined. A missing method answers nothing.
   */
  changedAt?(path: string): number | undefined;
  /**
   * Whether git has a file at or below `rel` in the repository whose work tree is `top`, staged or in
   * HEAD; undefined when git cannot tell (no git, no answer in time). Asked of git itself, reading
   * objects and the index only (nothing that runs the repository's configured commands). A missing
   * method answers nothing.
   */
  tracked?(top: string, rel: string): boolean | undefined;
  /**
   * Whether the regular file at `rel` in the work tree `top` holds exactly what its index entry
   * holds, compared byte for byte (no filter or other configured command runs): false when it
   * differs (a change git cannot give back), undefined when it is not in the index, is no plain file,
   * or git cannot tell. A missing method answers nothing.
   */
  matchesIndex?(top: string, rel: string): boolean | undefined;
  /**
   * The paths (relative to `top`) whose contents differ between two commits of the repository whose
   * work tree is `top`: from `from` to `to`, or from their merge base to `to` when `mergeBase`, or
   * every file of `to` when `from` is null. Undefined when git cannot tell (a revision that does not
   * resolve, no answer in time); `'too-many'` past a bound. Asked of git reading objects only. A
   * missing method answers nothing.
   */
  /**
   * The paths (relative to `top`) whose index entry differs from HEAD's: staged changes. Asked of git
   * reading the index and objects only; undefined when git cannot tell. A missing method answers nothing.
   */
  stagedChanges?(top: string): readonly string[] | undefined;
  treeChanges?(
    top: string,
    from: string | null,
    to: string,
    mergeBase: boolean,
  ): readonly string[] | 'too-many' | undefined;
  /**
   * True once a bound (operations, entries, bytes) made some answer undefined in this parse:
   * resolution was incomplete, and the command is reported dynamic so that it is gated.
   */
  readonly exhausted?: boolean;
  /** Called when a parse starts: per-parse bounds count from zero again. */
  begin?(): void;
}

/**
 * Whether nothing is at `path` (not even a dangling link): its directory lists without it. False
 * when that cannot be told (the directory unreadable, a bound hit).
 */
export function isAbsent(files: FileView, path: string): boolean {
  const names = files.readdir(posix.dirname(path));
  return names !== undefined && !files.exhausted && !names.includes(posix.basename(path));
}

/** Where and for whom a command will run: what resolution against the file system needs. */
export interface ResolveContext {
  /** Absolute working directory the command starts in. */
  cwd: string;
  /** The user's home directory, for `~` and `$HOME`. */
  home?: string;
  /** The PATH the command would be looked up on (colon-separated). */
  path?: string;
  /** Access to the file system; without it nothing is read and resolution stays textual. */
  files?: FileView;
  /** The environment the command inherits; only what resolution needs is read (TMPDIR). */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * Facts already parsed for this decision, by command and context (parseShell fills it). One
   * decision asks about a command more than once (a hook's look for a tollgate invocation, the gate's
   * classification); each asking would read the same files again. Hold one only for one decision:
   * the files may change between decisions.
   */
  parsed?: Map<string, ShellFacts>;
}
