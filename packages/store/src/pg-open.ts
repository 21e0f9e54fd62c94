// Opens a PostgreSQL store: a pg pool (int8 parsed as number, optional search_path schema), a
// reachability check, migrations. Every failure leaves as a StoreFault with the pool closed.
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { StoreFault, toStoreFault } from './fault.js';
import { runMigrations } from './migrate.js';
import type { Database } from './schema.js';

export interface PostgresOptions {
  /** Tables live in this schema (created if missing), through search_path; default: the server's. */
  schema?: string;
  /** Pool size (default 10). */
  max?: number;
  /** How long to wait for a connection before failing (default 5000 ms). */
  connectTimeoutMs?: number;
}

export interface PostgresConnection {
  pool: pg.Pool;
  db: Kysely<Database>;
}

const INT8_OID = 20;
// Epoch ms and seq fit in a double; pg returns int8 as a string by default.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? Number
      : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
};

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresConnection> {
  const schema = options.schema;
  if (schema !== undefined && !/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) {
    throw new StoreFault('store_failed', `schema name ${JSON.stringify(schema)} is not a plain identifier`);
  }
  const config: pg.PoolConfig = {
    connectionString: url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    types,
  };
  if (schema !== undefined) config.options = `-c search_path=${schema}`;
  const pool = new pg.Pool(config);
  // An idle client that loses its server emits here; without a listener that would crash the
  // process. The next query on the pool reports the failure as a fault instead.
  pool.on('error', () => {});
  const where = redact(url);
  let current: string;
  try {
    if (schema !== undefined) await createSchema(pool, schema);
    const { rows } = await pool.query<{ schema: string | null }>('SELECT current_schema() AS schema');
    current = rows[0]?.schema ?? 'public';
  } catch (error) {
    await pool.end().catch(() => {});
    throw toStoreFault(error, `cannot reach PostgreSQL store at ${where}`);
  }
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const outcome = await runMigrations(db, 'postgres', current);
  if (!outcome.ok) {
    await db.destroy().catch(() => {});
    const cause = toStoreFault(outcome.error, 'migrate');
    const code = cause.code === 'store_unavailable' ? cause.code : 'migration_failed';
    throw new StoreFault(code, `cannot migrate PostgreSQL store at ${where}: ${cause.message}`, {
      cause: outcome.error,
    });
  }
  return { pool, db };
}

/** IF NOT EXISTS still races between two openers (unique violation on the catalog): the loser is fine. */
async function createSchema(pool: pg.Pool, schema: string): Promise<void> {
  try {
    await pool.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  }
}

/** The URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return 'an unparseable URL';
  }
}
