// At most one live `tollgate notify drain` per project state directory (issue 13): a burst of review
// filings would otherwise fork one detached node process each. The lock is a file the filer creates
// exclusively (O_EXCL) before it spawns a drainer, then fills with the drainer's pid; a filer that
// finds it held by a live drainer (or by one being started, for a few seconds) spawns nothing, since
// the notice it queued is in the store and the live drainer takes it. A lock whose pid is dead, or a
// pending claim older than PENDING_MS, is stale and taken over. The drainer releases the lock and
// then looks at the outbox once more, so a notice queued while it was finishing is never stranded.
import {
  closeSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { projectStateDir } from './state.js';

/** A claim with no pid yet (the filer is spawning the drainer) holds this long, then is stale. */
export const PENDING_MS = 10_000;

export function drainLockPath(root: string, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(root, env), 'notify-drain.lock');
}

/** Who holds the lock: a pid (0 while pending) and when the file was last written. */
export interface Holder {
  pid: number;
  at: number;
}

export function readHolder(path: string): Holder | undefined {
  let at: number;
  let text: string;
  try {
    at = statSync(path).mtimeMs;
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // Empty or unreadable content is a claim being written: pending, judged by its age.
  const pid = /^\s*(\d{1,10})\s*$/.exec(text)?.[1];
  return { pid: pid === undefined ? 0 : Number(pid), at };
}

/** Whether a process with this pid exists (one of another user counts: it cannot be signalled, but lives). */
export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the holder still holds: its drainer lives, or its pending claim is recent. */
export function holds(holder: Holder, now: number): boolean {
  return holder.pid > 0 ? pidAlive(holder.pid) : now - holder.at < PENDING_MS;
}

/**
 * Takes the lock for `pid` (0: pending, the caller is about to spawn the drainer and write its pid):
 * true when taken, false when a live holder has it. A stale holder is removed first (once).
 */
export function claimDrainLock(path: string, pid: number, now: number): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, pid > 0 ? String(pid) : '');
      } finally {
        closeSync(fd);
      }
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(path);
    if (holder !== undefined && holds(holder, now)) return false;
    removeIf(path, holder);
  }
  return false;
}

/** Names the drainer a pending claim was taken for. */
export function setHolder(path: string, pid: number): void {
  writeFileSync(path, String(pid), { mode: 0o600 });
}

/** Releases the lock if `pid` holds it (a lock taken over by another drainer is left alone). */
export function releaseDrainLock(path: string, pid: number): void {
  const holder = readHolder(path);
  if (holder?.pid === pid) removeIf(path, holder);
}

/**
 * The drainer's side at start: true when the lock names this process (the filer wrote its pid, or it
 * was free and is now taken), false when another live drainer holds it. Waits up to `waitMs` for a
 * pending claim to name its drainer.
 */
export async function ownDrainLock(
  path: string,
  pid: number,
  now: () => number,
  waitMs = 3000,
): Promise<boolean> {
  const end = now() + waitMs;
  for (;;) {
    const holder = readHolder(path);
    if (holder?.pid === pid) return true;
    if (holder === undefined || !holds(holder, now())) {
      if (claimDrainLock(path, pid, now())) return true;
      continue;
    }
    if (holder.pid > 0 || now() > end) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Removes the lock file only if it is still the one `seen` (best effort: a stale lock may race). */
function removeIf(path: string, seen: Holder | undefined): void {
  const current = readHolder(path);
  if (seen !== undefined && current !== undefined && (current.pid !== seen.pid || current.at !== seen.at))
    return;
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
