// Picks the store from a target string (TOLLGATE_DB): a postgres:// or postgresql:// URL opens
// PostgreSQL; anything else is a SQLite file path; nothing at all is the default file under .tollgate/.
// The PostgreSQL store (pg, kysely) is loaded only for a postgres:// target.
import type { Store } from '@tollgate/core';
import { DEFAULT_SQLITE_PATH } from './sqlite-open.js';
import { SqliteStore } from './sqlite-store.js';

export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

export async function openStore(target?: string): Promise<Store> {
  if (target === undefined || target === '') return SqliteStore.open(DEFAULT_SQLITE_PATH);
  if (!isPostgresTarget(target)) return SqliteStore.open(target);
  const { PostgresStore } = await import('./pg-store.js');
  return PostgresStore.open(target);
}
