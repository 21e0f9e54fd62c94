// Runs the migrations to the latest version and reports what happened instead of throwing, the way
// kysely's Migrator does; the store openers turn a failure into a `migration_failed` fault.
import { type Kysely, Migrator } from 'kysely';
import { migrations } from './migrations.js';
import type { Database, Dialect } from './schema.js';

export type MigrationOutcome =
  | { ok: true; applied: string[] }
  | { ok: false; applied: string[]; failed?: string; error: unknown };

/**
 * `schema` (PostgreSQL): where the migration tables live. Without it kysely looks for them in every
 * schema of the database and takes another schema's tables for ours.
 */
export async function runMigrations(
  db: Kysely<Database>,
  dialect: Dialect,
  schema?: string,
): Promise<MigrationOutcome> {
  const all = migrations(dialect);
  const provider = { getMigrations: async () => all };
  // Unordered: migrations are independent, so a store that ran 0004 still takes a later-added 0003.
  const options = { db, provider, allowUnorderedMigrations: true };
  const migrator = new Migrator(
    schema === undefined ? options : { ...options, migrationTableSchema: schema },
  );
  try {
    // Fast path: several processes opening an up-to-date file should not all take the write lock.
    const known = await migrator.getMigrations();
    if (known.every((m) => m.executedAt !== undefined)) return { ok: true, applied: [] };
  } catch {
    // The migration table does not exist yet: fall through and create it.
  }
  const { error, results = [] } = await migrator.migrateToLatest();
  const applied = results.filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (error === undefined) return { ok: true, applied };
  const failed = results.find((r) => r.status === 'Error')?.migrationName;
  return failed === undefined ? { ok: false, applied, error } : { ok: false, applied, failed, error };
}
