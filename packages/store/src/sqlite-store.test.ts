// Runs the Store conformance suite against SQLite on real temporary files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { runStoreConformance } from './conformance.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

runStoreConformance('SQLite', async () => {
  const file = join(dir, `conf-${n++}.db`);
  const store = await SqliteStore.open(file);
  const side = new Sqlite(file, { timeout: 5000 });
  const exec = async (sql: string) => {
    side.exec(sql);
  };
  return {
    store,
    raw: exec,
    tamper: (sql) =>
      exec(`DROP TRIGGER IF EXISTS audit_no_update; DROP TRIGGER IF EXISTS audit_no_delete; ${sql}`),
    dispose: async () => {
      side.close();
      await store.close();
    },
  };
});

describe('SQLite store file', () => {
  it('runs in WAL mode with synchronous=NORMAL and a busy timeout', async () => {
    const store = await SqliteStore.open(join(dir, 'pragmas.db'), { busyTimeoutMs: 1234 });
    const raw = await store.kysely();
    const { sql } = await import('kysely');
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(raw);
    const sync = await sql<{ synchronous: number }>`PRAGMA synchronous`.execute(raw);
    const busy = await sql<{ timeout: number }>`PRAGMA busy_timeout`.execute(raw);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
    expect(sync.rows[0]?.synchronous).toBe(1);
    expect(busy.rows[0]?.timeout).toBe(1234);
    await store.close();
  });

  it('creates missing directories and reopens an existing file without migrating again', async () => {
    const file = join(dir, 'nested', 'deeper', 'again.db');
    const first = await SqliteStore.open(file);
    await first.appendAudit([{ id: 'x1', at: new Date().toISOString(), kind: 'decision', session: 's' }]);
    await first.close();
    const second = await SqliteStore.open(file);
    expect(await second.verifyAudit()).toEqual({ ok: true, rows: 1 });
    await second.close();
  });
});

describe('SQLite store identity', () => {
  it('gives a store from before the identity migration an id when it is next opened, and keeps it', async () => {
    const file = join(dir, 'old-v1.db');
    // A file as the first release wrote it: only the initial migration.
    const { Kysely, Migrator, SqliteDialect } = await import('kysely');
    const { migrations } = await import('./migrations.js');
    const initial = migrations('sqlite')['0001_initial']!;
    const raw = new Sqlite(file);
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: raw }) });
    const provider = { getMigrations: async () => ({ '0001_initial': initial }) };
    expect((await new Migrator({ db, provider }).migrateToLatest()).error).toBeUndefined();
    raw.pragma('user_version = 1');
    await db.destroy();
    const upgraded = await SqliteStore.open(file);
    const id = await upgraded.storeId();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await upgraded.close();
    const again = await SqliteStore.open(file);
    expect(await again.storeId()).toBe(id);
    await again.close();
  });
});

describe('SQLite schema version', () => {
  it('is the number of migrations, so a current file skips the migrator', async () => {
    const { migrations } = await import('./migrations.js');
    const { SQLITE_SCHEMA_VERSION } = await import('./sqlite-open.js');
    expect(SQLITE_SCHEMA_VERSION).toBe(Object.keys(migrations('sqlite')).length);
  });
});
