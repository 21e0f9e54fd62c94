// Picks the store from a target string (TOLLGATE_DB): a postgres:// or postgresql:// URL opens
// PostgreSQL; anything else is a SQLite file path; nothing at all is the default file under .tollgate/.
import type { Store } from '@tollgate/core';
import { PostgresStore } from './pg-store.js';
import { DEFAULT_SQLITE_PATH } from './sqlite-open.js';
import { SqliteStore } from './sqlite-store.js';

export function isPostgresTarget(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

export async function openStore(target?: string): Promise<Store> {
  if (target === undefined || target === '') return SqliteStore.open(DEFAULT_SQLITE_PATH);
  return isPostgresTarget(target) ? PostgresStore.open(target) : SqliteStore.open(target);
}
