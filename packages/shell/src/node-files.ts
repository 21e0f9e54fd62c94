// The FileView over node:fs that adapters hand to parseShell: synchronous, read-only and bounded,
// so resolving a command never costs more than a few hundred system calls. A bound that is hit
// answers undefined and sets `exhausted`, which parseShell turns into a dynamic construct.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import type { FileView } from './files.js';

export interface FileLimits {
  /** File system operations per parse (default 512). */
  maxOps?: number;
  /** Entries read from one directory (default 4096). */
  maxEntries?: number;
  /** Bytes read from one file (default 256 KiB); a caller may ask for fewer. */
  maxBytes?: number;
}

export interface NodeFileView extends FileView {
  readonly exhausted: boolean;
  /** Operations used since the last `begin()`. */
  readonly ops: number;
  begin(): void;
}

/**
 * Paths that name the reading process's own descriptors or its /proc entry (/dev/stdin, /dev/fd/N,
 * /proc/self/…): the command sees its own, and the gate would see its own. They are kept as written
 * (scripts.ts reads fd 0 as the command's stdin) and never resolved or read here.
 */
export const DESCRIPTOR_PATH =
  /^\/(?:dev\/(?:stdin|stdout|stderr|fd)|proc\/(?:self|thread-self|\d+))(?:\/|$)/;

/** Files that are this process's stdin, stdout or stderr (a link into /proc/self/fd reaches them). */
function ownStreams(): { dev: number; ino: number }[] {
  return [0, 1, 2].flatMap((fd) => {
    try {
      const s = fstatSync(fd);
      return s.isFile() ? [{ dev: s.dev, ino: s.ino }] : [];
    } catch {
      return [];
    }
  });
}

export function nodeFileView(limits: FileLimits = {}): NodeFileView {
  const maxOps = limits.maxOps ?? 512;
  const maxEntries = limits.maxEntries ?? 4096;
  const maxBytes = limits.maxBytes ?? 256 * 1024;
  let ops = 0;
  let exhausted = false;
  // Read on first use, in the process that reads (never in a start-up snapshot's builder).
  let own: { dev: number; ino: number }[] | undefined;
  const ownStream = (stat: { dev: number; ino: number }) => {
    own ??= ownStreams();
    return own.some((o) => o.dev === stat.dev && o.ino === stat.ino);
  };
  /** Count one operation; false (and exhausted) when the budget is spent. */
  const take = (): boolean => {
    if (ops >= maxOps) {
      exhausted = true;
      return false;
    }
    ops++;
    return true;
  };
  return {
    get exhausted() {
      return exhausted;
    },
    get ops() {
      return ops;
    },
    begin() {
      ops = 0;
      exhausted = false;
    },
    readdir(dir) {
      if (!take()) return undefined;
      try {
        // A missing path answers without an exception (they cost more than the call).
        if (!statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return undefined;
        const names = readdirSync(dir);
        if (names.length > maxEntries) {
          exhausted = true;
          return undefined;
        }
        return names;
      } catch {
        return undefined;
      }
    },
    realpath(path) {
      if (!take()) return undefined;
      // Resolved here these would name the gate's own descriptors, not the command's.
      if (DESCRIPTOR_PATH.test(path)) return path;
      try {
        if (lstatSync(path, { throwIfNoEntry: false }) === undefined) return undefined;
        return realpathSync.native(path);
      } catch {
        return undefined;
      }
    },
    readlink(path) {
      if (!take()) return null;
      if (DESCRIPTOR_PATH.test(path)) return undefined;
      try {
        return lstatSync(path, { throwIfNoEntry: false })?.isSymbolicLink() ? readlinkSync(path) : undefined;
      } catch (error) {
        // Below a file nothing is; other failures (EACCES, ELOOP on the way) leave it untold.
        return (error as NodeJS.ErrnoException).code === 'ENOTDIR' ? undefined : null;
      }
    },
    executable(path) {
      if (!take()) return undefined;
      try {
        const stat = statSync(path, { throwIfNoEntry: false });
        return stat?.isFile() === true && (stat.mode & 0o111) !== 0;
      } catch {
        return undefined;
      }
    },
    links(path) {
      if (!take()) return undefined;
      try {
        return lstatSync(path, { throwIfNoEntry: false })?.nlink;
      } catch {
        return undefined;
      }
    },
    changedAt(path) {
      if (!take()) return undefined;
      try {
        return lstatSync(path, { throwIfNoEntry: false })?.ctimeMs;
      } catch {
        return undefined;
      }
    },
    tracked(top, rel) {
      if (!take()) return undefined;
      return gitHas(top, rel);
    },
    matchesIndex(top, rel) {
      if (!take()) return undefined;
      return gitMatchesIndex(top, rel, MAX_INDEXED_BYTES);
    },
    treeChanges(top, from, to, mergeBase) {
      if (!take()) return undefined;
      return gitTreeChanges(top, from, to, mergeBase);
    },
    stagedChanges(top) {
      if (!take()) return undefined;
      const found = gitNames(top, [
        'diff-index',
        '--cached',
        '--name-only',
        '-z',
        '--no-renames',
        'HEAD',
        '--',
      ]);
      return found === 'too-many' ? undefined : found;
    },
    readHead(path, wanted) {
      if (!take()) return undefined;
      let fd: number | undefined;
      try {
        fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
        const stat = fstatSync(fd);
        if (!stat.isFile() || ownStream(stat)) return undefined;
        const buffer = Buffer.alloc(Math.min(wanted, 4096));
        const n = readSync(fd, buffer, 0, buffer.length, 0);
        return buffer.subarray(0, n).toString('latin1');
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
    readText(path, wanted) {
      if (!take()) return undefined;
      const cap = Math.min(wanted, maxBytes);
      let fd: number | undefined;
      try {
        // Non-blocking: a FIFO planted by the agent must not hang the gate.
        fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
        const stat = fstatSync(fd);
        if (!stat.isFile() || ownStream(stat)) return undefined;
        if (stat.size > cap) {
          exhausted = true;
          return undefined;
        }
        const buffer = Buffer.alloc(stat.size);
        let read = 0;
        while (read < stat.size) {
          const n = readSync(fd, buffer, read, stat.size - read, read);
          if (n === 0) break;
          read += n;
        }
        return buffer.subarray(0, read).toString('utf8');
      } catch {
        return undefined;
      } finally {
        if (fd !== undefined) closeSync(fd);
      }
    },
  };
}

/** How long git may take to say what it has under a path. */
const GIT_TIMEOUT_MS = 2000;
/** Largest work-tree file hashed against its index entry; a larger one cannot be told. */
const MAX_INDEXED_BYTES = 16 * 1024 * 1024;

/**
 * `git ls-files --with-tree=HEAD`: the index's paths and HEAD's under `rel` (an unborn branch has
 * only the index). Run with the environment's GIT_* variables removed, so that it asks the
 * repository at `top` and no other; ls-files reads the index and objects, and runs nothing.
 */
function gitHas(top: string, rel: string): boolean | undefined {
  const env = gitEnv();
  const ask = (withHead: boolean) =>
    lsFiles(top, ['--cached', ...(withHead ? ['--with-tree=HEAD'] : [])], rel, env);
  let run = ask(true);
  if (run.status !== 0 && !run.error) {
    // No HEAD yet (a repository without commits): the index is all git has.
    const head = spawnSync('git', ['-C', top, 'rev-parse', '--verify', '-q', 'HEAD'], {
      env,
      timeout: GIT_TIMEOUT_MS,
      stdio: 'ignore',
    });
    if (head.status === 1 && !head.error) run = ask(false);
  }
  if (run.error || run.status !== 0) return undefined;
  return run.stdout.length > 0;
}

/**
 * `git ls-files -z OPTIONS -- rel` in the work tree `top`: paths taken literally; it reads the index
 * and objects and runs nothing the repository configures (readGit).
 */
function lsFiles(top: string, options: readonly string[], rel: string, env: Record<string, string>) {
  return readGit(top, ['--literal-pathspecs', 'ls-files', '-z', ...options, '--', rel], env);
}

/** Most output a read-only git command is read for (about 1 MiB of names); more is 'too-many'. */
const MAX_GIT_OUTPUT_BYTES = 1024 * 1024;

/**
 * `git diff-tree -r --name-only` between two revisions (`--merge-base`: from their merge base), or
 * `git ls-tree -r --name-only` of one: objects only, no external diff or textconv, no fsmonitor, the
 * revisions after --end-of-options so that none is taken for an option.
 */
function gitTreeChanges(
  top: string,
  from: string | null,
  to: string,
  mergeBase: boolean,
): readonly string[] | 'too-many' | undefined {
  const revs = from === null ? [to] : [from, to];
  if (revs.some((r) => r === '' || r.startsWith('-') || r.includes('\0'))) return undefined;
  const command =
    from === null
      ? ['ls-tree', '-r', '--name-only', '-z', '--end-of-options', to]
      : [
          'diff-tree',
          '-r',
          '--name-only',
          '-z',
          '--no-renames',
          '--no-ext-diff',
          '--no-textconv',
          ...(mergeBase ? ['--merge-base'] : []),
          '--end-of-options',
          from,
          to,
        ];
  return gitNames(top, command);
}

/** The NUL-separated names a read-only git command prints in the work tree `top`. */
function gitNames(top: string, command: readonly string[]): readonly string[] | 'too-many' | undefined {
  const run = readGit(top, command, gitEnv());
  if ((run.error as NodeJS.ErrnoException | undefined)?.code === 'ENOBUFS') return 'too-many';
  if (run.error || run.status !== 0) return undefined;
  return run.stdout.split('\0').filter((p) => p !== '');
}

/**
 * A git command that only reads, in the work tree `top`: no optional locks, no fsmonitor, bounded in
 * time and output, stderr dropped.
 */
function readGit(top: string, command: readonly string[], env: Record<string, string>) {
  return spawnSync('git', ['-C', top, '--no-optional-locks', '-c', 'core.fsmonitor=false', ...command], {
    env,
    encoding: 'utf8',
    timeout: GIT_TIMEOUT_MS,
    maxBuffer: MAX_GIT_OUTPUT_BYTES,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
}

/** The environment without GIT_* variables: git asks the repository at `-C top` and no other. */
function gitEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env))
    if (value !== undefined && !key.startsWith('GIT_')) env[key] = value;
  return env;
}

/**
 * The work-tree file against its index entry (`git ls-files -s`): its bytes hashed here as git hashes
 * a blob (sha-1, or sha-256 in such a repository), so no clean filter, textconv or other configured
 * command runs. A conflicted path (several stages) differs; a link, a submodule or a file larger than
 * `maxBytes` cannot be told.
 */
function gitMatchesIndex(top: string, rel: string, maxBytes: number): boolean | undefined {
  const run = lsFiles(top, ['-s'], rel, gitEnv());
  if (run.error || run.status !== 0) return undefined;
  const entries = run.stdout.split('\0').filter((e) => e !== '');
  if (entries.length === 0) return undefined;
  if (entries.length > 1) return false;
  const m = /^(\d{6}) ([0-9a-f]{40}|[0-9a-f]{64}) \d\t/.exec(entries[0] as string);
  if (!m || (m[1] !== '100644' && m[1] !== '100755')) return undefined;
  const path = `${top}/${rel}`;
  let content: Buffer;
  try {
    const stat = lstatSync(path);
    if (!stat.isFile()) return false;
    if (stat.size > maxBytes) return undefined;
    content = readFileSync(path);
  } catch {
    return undefined;
  }
  const sha = m[2] as string;
  const hash = createHash(sha.length === 64 ? 'sha256' : 'sha1');
  hash.update(`blob ${content.length}\0`);
  hash.update(content);
  return hash.digest('hex') === sha;
}
