// Review notices from a process (core's review-notify.ts): the webhooks of the config, the POST
// (fetch with a time-out, no redirects), and how a filed request reaches them. A hook process lives
// for one tool call and exits right after answering, so it never waits on a webhook: it queues the
// notice in the store (the outbox) and starts a detached `tollgate notify drain` unless one is live
// for this project already (drain-lock.ts), which posts with
// retries and records every attempt; `tollgate serve` drains the same outbox in-process. Whatever
// happens there, the call that filed the request is already refused. Logs and stored errors name a
// webhook by its name, never by its URL or headers (either may carry a secret).
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '@tollgate/contracts';
import {
  type NotificationRecord,
  type NotifyTarget,
  type PostResult,
  type ReviewRecord,
  type Store,
  systemClock,
  targetName,
} from '@tollgate/core';
import { claimDrainLock, drainLockPath, releaseDrainLock, setHolder } from './drain-lock.js';
import type { LoadedConfig } from './runtime.js';
import { projectStateDir } from './state.js';

export function notifyTargets(config: Config): NotifyTarget[] {
  return (config.notify?.webhooks ?? []).map((w, i) => ({
    name: targetName(i, w.url, w.name),
    url: w.url,
    format: w.format ?? 'json',
    headers: Object.fromEntries(
      Object.entries(w.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    ),
    timeout_ms: w.timeout_ms ?? 5000,
    retries: w.retries ?? 3,
  }));
}

/** One POST; the error says what went wrong without the URL, its query or the headers. */
export async function postWebhook(target: NotifyTarget, body: unknown): Promise<PostResult> {
  try {
    const response = await fetch(target.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...target.headers },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(target.timeout_ms),
    });
    await response.arrayBuffer().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true };
    return { ok: false, error: `HTTP ${response.status}` };
  } catch (error) {
    return { ok: false, error: fetchError(error, target.timeout_ms) };
  }
}

function fetchError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; cause?: { code?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return `timed out after ${timeoutMs} ms`;
  const code = e.cause?.code;
  if (typeof code === 'string' && /^[A-Z_]+$/.test(code)) return `connection failed (${code})`;
  return 'the request failed';
}

/** Where failed notices are logged: notify.log in the project's state directory. */
export function notifyLog(loaded: LoadedConfig, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(loaded.root, env), 'notify.log');
}

export function logFailure(file: string, n: NotificationRecord, error: string, final: boolean): void {
  logLine(
    file,
    `review ${n.review_id} webhook ${n.target}: attempt ${n.attempts} failed: ${error}${final ? ' (gave up)' : ' (will retry)'}`,
  );
}

/** One timestamped line in notify.log (failures, and each drainer's start). */
export function logLine(file: string, text: string): void {
  const line = `${new Date(systemClock.now()).toISOString()} ${text}\n`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // the store holds the failure too; a log that cannot be written loses nothing else
  }
}

/**
 * What a process does when its gate files a review request: queue it for every webhook, then have it
 * delivered — by a detached drainer (a short-lived process: the hook, `tollgate run`), or by `kick`
 * (a long-lived one: `tollgate serve`). Undefined when no webhook is configured.
 */
export function reviewAnnouncer(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
  store: () => Store,
  kick?: () => void,
): ((record: ReviewRecord) => Promise<void>) | undefined {
  const targets = notifyTargets(loaded.config);
  if (targets.length === 0) return undefined;
  return async (record) => {
    await store().enqueueNotifications(
      record.id,
      targets.map((t) => t.name),
      record.created_at,
    );
    if (kick) kick();
    else spawnDrainer(loaded, env);
  };
}

/**
 * Starts `tollgate notify drain` detached from this process (its own session, no pipes), so this
 * process exits at once; the drainer finds the same config and store (same environment, started in
 * the project root). At most one drainer lives per project state directory (drain-lock.ts): when one
 * is live, or being started, nothing is spawned — the notice is queued and that drainer takes it.
 * Costs this process one lock file and at most one spawn, a few milliseconds. Returns whether it spawned.
 */
export function spawnDrainer(loaded: LoadedConfig, env: NodeJS.ProcessEnv): boolean {
  const bin = process.argv[1];
  if (!bin) return false;
  const lock = drainLockPath(loaded.root, env);
  try {
    if (!claimDrainLock(lock, 0, systemClock.now())) return false;
  } catch {
    // no lock can be taken (an unwritable state directory): start one anyway, as before the lock
  }
  try {
    const child = spawn(process.execPath, [bin, 'notify', 'drain'], {
      cwd: loaded.root,
      env: { ...env, ...(loaded.path !== undefined ? { TOLLGATE_CONFIG: loaded.path } : {}) },
      detached: true,
      stdio: 'ignore',
    });
    child.on('error', () => {});
    child.unref();
    if (child.pid !== undefined) setHolder(lock, child.pid);
    else releasePending(lock);
    return child.pid !== undefined;
  } catch {
    // queued in the store: the next drainer or tollgate serve delivers it
    releasePending(lock);
    return false;
  }
}

function releasePending(lock: string): void {
  try {
    releaseDrainLock(lock, 0);
  } catch {
    // a pending claim goes stale by itself
  }
}
