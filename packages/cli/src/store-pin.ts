// Pins: the CLI remembers, outside the project, every SQLite store file it opened and the store id it
// found there (`<state base>/pins/<sha256 of the path>.json`). A pinned store that is missing, or whose
// id changed, is refused as store_unavailable (→ gate_unavailable) instead of being created afresh: a
// gate whose store can be wiped by the agent and silently recreated would keep no history at all.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Store, TollgateFault } from '@tollgate/core';
import { openStore } from '@tollgate/store';
import { canonicalPath, stateBase } from './state.js';
import { watchStoreFile } from './store-watch.js';

export interface Pin {
  path: string;
  store_id: string;
  created_at: string;
}

const RESET_FIX = 'a person re-initialises it with: tollgate store reset --reason "<why>"';

export function pinFile(base: string, storePath: string): string {
  const key = createHash('sha256').update(canonicalPath(storePath), 'utf8').digest('hex');
  return join(base, 'pins', `${key}.json`);
}

/** The pin of a store file, undefined when none; a pin that cannot be read is a fault, never "no pin". */
export function readPin(base: string, storePath: string): Pin | undefined {
  const file = pinFile(base, storePath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw unavailable(
      `cannot read the pin ${file} of the store ${storePath}: ${(error as Error).message}`,
      'check the permissions of the tollgate state directory',
    );
  }
  try {
    const pin = JSON.parse(text) as Partial<Pin>;
    if (
      typeof pin.store_id === 'string' &&
      typeof pin.path === 'string' &&
      typeof pin.created_at === 'string'
    )
      return pin as Pin;
  } catch {
    // fall through
  }
  throw unavailable(`the pin ${file} of the store ${storePath} is damaged; ${RESET_FIX}`);
}

export function writePin(base: string, pin: Pin): void {
  const file = pinFile(base, pin.path);
  mkdirSync(join(base, 'pins'), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(pin)}\n`, { mode: 0o600 });
  renameSync(tmp, file);
}

export function removePin(base: string, storePath: string): void {
  rmSync(pinFile(base, storePath), { force: true });
}

/** Whether a store target is pinned: a file path (PostgreSQL has no file to lose). */
export function isFileTarget(target: string): boolean {
  return !/^[a-z][a-z0-9+.-]*:\/\//i.test(target) && target !== ':memory:';
}

/**
 * Opens the store at `target`, checking it against its pin: a pinned file that is gone, or that holds
 * another store, is a store_unavailable fault and nothing is created; an unpinned file is opened (or
 * created) and pinned. The store returned keeps checking that the path still names the file it opened
 * (store-watch.ts), for gates that run long. `expectedId` (TOLLGATE_STORE_ID, pinned into the hook command by
 * `tollgate init claude-code`) must match too, and makes a missing file a fault even without a pin.
 */
export async function openPinnedStore(target: string, env: NodeJS.ProcessEnv): Promise<Store> {
  if (!isFileTarget(target)) return openStore(target);
  const path = canonicalPath(target);
  const base = stateBase(env);
  const pin = readPin(base, path);
  const expectedId = env.TOLLGATE_STORE_ID || pin?.store_id;
  if (expectedId !== undefined && !existsSync(path))
    throw unavailable(
      `the gate's store ${path} has vanished (store ${expectedId.slice(0, 8)}${pin ? `, pinned ${pin.created_at}` : ''}); it is not recreated silently, so gated calls are refused; ${RESET_FIX}`,
    );
  const store = await openStore(path);
  let id: string;
  try {
    id = await store.storeId();
  } catch (error) {
    await store.close().catch(() => {});
    throw error;
  }
  if (expectedId !== undefined && id !== expectedId) {
    await store.close().catch(() => {});
    throw unavailable(
      `the gate's store ${path} was replaced (it holds store ${id.slice(0, 8)}, the pinned one is ${expectedId.slice(0, 8)}); gated calls are refused; ${RESET_FIX}`,
    );
  }
  if (!pin) {
    try {
      writePin(base, { path, store_id: id, created_at: new Date().toISOString() });
    } catch (error) {
      await store.close().catch(() => {});
      throw unavailable(
        `cannot pin the store ${path} under ${base}: ${(error as Error).message}`,
        'make the tollgate state directory writable (or point TOLLGATE_STATE_DIR at one)',
      );
    }
  }
  return watchStoreFile(store, path);
}

function unavailable(message: string, fix = RESET_FIX): TollgateFault {
  return new TollgateFault('store_unavailable', message, { fix });
}

/** How anchors and resets name a store: its canonical file path, or its URL without credentials. */
export function storeLabel(target: string): string {
  if (isFileTarget(target)) return canonicalPath(target);
  try {
    const url = new URL(target);
    url.username = '';
    url.password = '';
    return url.toString();
  } catch {
    return 'an unparseable URL';
  }
}
