// Opens (creating if needed) a SQLite store file: directories, pragmas, migrations. Every failure
// leaves as a StoreFault with a code and the connection closed. A file whose user_version says it is
// current skips the migrator, and kysely loads only when something asks for it: a hook process opens
// the store on every tool call, and neither belongs on that path.
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Sqlite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { StoreFault, toStoreFault } from './fault.js';
import type { MigrationOutcome } from './migrate.js';
import type { Database } from './schema.js';

export const DEFAULT_SQLITE_PATH = '.tollgate/tollgate.db';

/** Bumped with every migration added to migrations.ts (a test keeps the two in step). */
export const SQLITE_SCHEMA_VERSION = 15;

export interface SqliteOptions {
  /** How long a writer waits for another process's write lock before failing (default 5000 ms). */
  busyTimeoutMs?: number;
  /** better-sqlite3's addon object to use instead of the built one: the warm-up's stand-in (sqlite-stand-in.ts). */
  nativeBinding?: object;
}

export interface SqliteConnection {
  path: string;
  raw: Sqlite.Database;
  /** The kysely handle over the same connection, created on first use. */
  kysely(): Promise<Kysely<Database>>;
  close(): Promise<void>;
}

export async function openSqlite(path: string, options: SqliteOptions = {}): Promise<SqliteConnection> {
  const file = path === ':memory:' ? path : resolve(path);
  let raw: Sqlite.Database | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      raw = openRaw(file, options);
      break;
    } catch (error) {
      // A new file another process is creating this instant: switching to WAL waits for its lock.
      if (attempt >= 20 || !raced(error)) throw toStoreFault(error, `cannot open SQLite store at ${file}`);
      await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
    }
  }
  const conn = connection(file, raw);
  let current: boolean;
  try {
    current = raw.pragma('user_version', { simple: true }) === SQLITE_SCHEMA_VERSION;
  } catch (error) {
    raw.close();
    throw toStoreFault(error, `cannot open SQLite store at ${file}`);
  }
  if (current) return conn;
  const outcome = await migrateWithRetry(raw, await conn.kysely());
  if (!outcome.ok) {
    await conn.close();
    const cause = toStoreFault(outcome.error, 'migrate');
    // A file that is not a database fails at its first read, which is the migrator's.
    const code =
      cause.code === 'store_corrupt' || cause.code === 'store_unavailable' ? cause.code : 'migration_failed';
    throw new StoreFault(code, `cannot migrate SQLite store at ${file}: ${cause.message}`, {
      cause: outcome.error,
    });
  }
  raw.pragma(`user_version = ${SQLITE_SCHEMA_VERSION}`);
  return conn;
}

function connection(path: string, raw: Sqlite.Database): SqliteConnection {
  let db: Promise<Kysely<Database>> | undefined;
  return {
    path,
    raw,
    kysely() {
      db ??= import('kysely').then(
        ({ Kysely, SqliteDialect }) =>
          new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) }),
      );
      return db;
    },
    async close() {
      // Destroying kysely closes the connection it wraps; without kysely, close it directly.
      if (db) await (await db).destroy();
      else if (raw.open) raw.close();
    },
  };
}

/**
 * Another process migrating the same file at the same instant: the database was busy, or (before the
 * migration ran under one write transaction) its migration committed a table between our reading the
 * migration log and creating it. The next attempt reads the log the winner wrote.
 */
function raced(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return /SQLITE_BUSY|SQLITE_LOCKED/.test(String(e?.code)) || /already exists/.test(String(e?.message));
}

/**
 * kysely runs SQLite migrations outside any transaction and its migration lock is a no-op there (it
 * assumes one connection), so two processes opening a new or old file at once both ran a migration
 * and the second failed on `duplicate column`. Here the whole run holds SQLite's write lock
 * (BEGIN IMMEDIATE; SQLite's DDL is transactional): a second process waits, then finds the log
 * complete; a failed run rolls back whole, leaving the file as it was.
 */
async function migrateWithRetry(raw: Sqlite.Database, db: Kysely<Database>) {
  const { runMigrations } = await import('./migrate.js');
  for (let attempt = 0; ; attempt++) {
    const outcome = await migrateLocked(raw, () => runMigrations(db, 'sqlite'));
    if (outcome.ok || attempt >= 20 || !raced(outcome.error)) return outcome;
    await new Promise((r) => setTimeout(r, 25 + Math.random() * 50));
  }
}

async function migrateLocked(raw: Sqlite.Database, run: () => Promise<MigrationOutcome>) {
  if (raw.name === ':memory:') return run();
  try {
    raw.exec('BEGIN IMMEDIATE');
  } catch (error) {
    return { ok: false as const, applied: [], error };
  }
  let outcome: MigrationOutcome;
  try {
    outcome = await run();
  } catch (error) {
    outcome = { ok: false, applied: [], error };
  }
  try {
    raw.exec(outcome.ok ? 'COMMIT' : 'ROLLBACK');
  } catch (error) {
    if (raw.inTransaction) raw.exec('ROLLBACK');
    if (outcome.ok) return { ok: false as const, applied: [], error };
  }
  return outcome;
}

// better-sqlite3 finds its addon through the `bindings` package, which walks a stack trace and probes
// a dozen paths on every process start; naming the built addon directly skips that search.
const ADDON = 'better-sqlite3/build/Release/better_sqlite3.node';
let addon: { nativeBinding?: string } | undefined;
/** The addon's path relative to this module, when locateSqliteAddon found it. */
let addonFromHere: string | undefined;

function moduleDir(): string {
  return dirname(fileURLToPath(import.meta.url));
}

/**
 * Resolves the addon now and keeps its place relative to this module. The hook's start-up snapshot
 * calls it while it is built (it cannot load a native addon), so a hook process finds the addon
 * with one stat instead of node's module resolution (~1 ms), wherever the package has moved since.
 */
export function locateSqliteAddon(): void {
  try {
    addonFromHere = relative(moduleDir(), createRequire(import.meta.url).resolve(ADDON));
  } catch {
    addonFromHere = undefined;
  }
}

function nativeBinding(): { nativeBinding?: string } {
  if (addon) return addon;
  if (addonFromHere !== undefined) {
    const known = resolve(moduleDir(), addonFromHere);
    if (existsSync(known)) addon = { nativeBinding: known };
  }
  if (!addon) {
    try {
      addon = { nativeBinding: createRequire(import.meta.url).resolve(ADDON) };
    } catch {
      addon = {};
    }
  }
  return addon;
}

/** The connection with its pragmas; closed again when a pragma fails. */
function openRaw(file: string, options: SqliteOptions): Sqlite.Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const binding = options.nativeBinding ? { nativeBinding: options.nativeBinding } : nativeBinding();
  // The typings name only a path; better-sqlite3 takes the addon object itself as well.
  const raw = new Sqlite(file, {
    timeout: options.busyTimeoutMs ?? 5000,
    ...(binding as { nativeBinding?: string }),
  });
  try {
    raw.pragma('journal_mode = WAL');
    // NORMAL in WAL mode syncs the WAL only at checkpoints, not at every commit. A commit has still
    // been written (write(2)) into the WAL before it returns, so it lives in the OS page cache and
    // survives the process being killed (kill -9); only an OS crash or power loss can roll back the
    // newest commits (SQLite docs, PRAGMA synchronous). crash.test.ts checks the kill -9 half.
    raw.pragma('synchronous = NORMAL');
    // A checkpoint fsyncs (about 5 ms here) inside whichever commit triggers it. Each audit append
    // writes a WAL page per index it touches, so the default 1000-page trigger lands on ~1% of gate
    // checks and breaks the p99 budget; 4000 pages (16 MiB of WAL) moves the stall past p99.
    raw.pragma('wal_autocheckpoint = 4000');
  } catch (error) {
    raw.close();
    throw error;
  }
  return raw;
}
