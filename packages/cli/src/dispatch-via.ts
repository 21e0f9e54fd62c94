// Which process a dispatch was let through for, so that the git hook running under that process —
// and no other — takes the dispatch as its own instead of judging the push again (git-hook.ts). A
// dispatching gate records the process that will be an ancestor of the git it lets run: `tollgate
// run` and a shim themselves (they spawn the command), a host's hook process the agent host it
// answers (the host's shell runs the command). A process is its pid and its start time, so a pid
// reused later by another process does not match. Without /proc nothing is recorded or matched: the
// push is judged afresh. Files under the project's state dir: git-hook-claims/<audit id>.via.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { agentHostOfArgv, procAncestors } from './person.js';

export interface ProcessId {
  pid: number;
  /** Field 22 of /proc/PID/stat: clock ticks after boot at which the process started. */
  start: string;
}

const AUDIT_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** Where dispatch rows are claimed by git hooks, and their `.via` records kept. */
export function claimsDir(stateDir: string): string {
  return join(stateDir, 'git-hook-claims');
}

export function processId(pid: number, proc = '/proc'): ProcessId | undefined {
  let stat: string;
  try {
    stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // Fields after the parenthesised name (which may hold spaces): state is field 3, start time 22.
  const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  return start !== undefined && /^\d+$/.test(start) ? { pid, start } : undefined;
}

/** The nearest ancestor of this process that an agent host runs as (by its command line). */
export function hostAncestor(proc = '/proc'): ProcessId | undefined {
  const chain = procAncestors(process.pid, proc);
  const host = chain?.find((a) => agentHostOfArgv(a.argv) !== undefined);
  return host === undefined ? undefined : processId(host.pid, proc);
}

/** Records that dispatch `auditId` was let through for the command `via` runs. */
export function recordVia(stateDir: string, auditId: string, via: ProcessId | undefined): void {
  if (via === undefined || !AUDIT_ID.test(auditId)) return;
  const dir = claimsDir(stateDir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, `${auditId}.via`), `${JSON.stringify(via)}\n`);
}

/** A dispatch this process lets through and runs itself (tollgate run, a shim): recorded for this process. */
export function recordViaSelf(stateDir: string, verdict: { outcome: string; audit_id?: string }): void {
  if (verdict.outcome === 'dispatch' && verdict.audit_id !== undefined)
    recordVia(stateDir, verdict.audit_id, processId(process.pid));
}

/** Whether dispatch `auditId` was let through for a process among this one's ancestors (still the same process). */
export function viaIsAncestor(stateDir: string, auditId: string, proc = '/proc'): boolean {
  if (!AUDIT_ID.test(auditId)) return false;
  let via: Partial<ProcessId>;
  try {
    via = JSON.parse(readFileSync(join(claimsDir(stateDir), `${auditId}.via`), 'utf8')) as Partial<ProcessId>;
  } catch {
    return false;
  }
  if (typeof via.pid !== 'number' || typeof via.start !== 'string') return false;
  const chain = procAncestors(process.pid, proc);
  if (!chain?.some((a) => a.pid === via.pid)) return false;
  return processId(via.pid, proc)?.start === via.start;
}
