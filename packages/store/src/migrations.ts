// Schema migrations, in order. Each takes the dialect because a few column types and the append-only
// guard differ between SQLite and PostgreSQL; everything else is one kysely definition for both.
import { randomBytes } from 'node:crypto';
import { GENESIS_HASH } from '@tollgate/core';
import { type Kysely, type Migration, sql } from 'kysely';
import { hostPostsTable } from './host-posts.js';
import { ledgerIndexes } from './migration-ledger.js';
import { reportPerfunctory } from './migration-perfunctory.js';
import { reportQueryable } from './migration-queryable.js';
import { reportCovering, reportFacts, reportIndexes } from './migration-report.js';
import { mismatchIndex, reportRollups } from './migration-rollup.js';
import { sessionUsageTable } from './migration-session-usage.js';
import { notificationsTable } from './notify-sql.js';
import { reviewsTable } from './review-sql.js';
import type { Dialect } from './schema.js';
import { sessionFilesTable } from './session-files.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
type AnyDb = Kysely<any>;

export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_initial': { up: (db: AnyDb) => initial(db, dialect) },
    '0002_store_identity': { up: (db: AnyDb) => storeIdentity(db) },
    // 0004, not 0003: another change may take 0003; names sort, so keep this one after it.
    '0004_report_facts': { up: (db: AnyDb) => reportFacts(db, dialect) },
    '0005_session_files': {
      up: (db: AnyDb) => sessionFilesTable(db, dialect === 'sqlite' ? 'integer' : 'bigint'),
    },
    '0006_session_usage': {
      up: (db: AnyDb) => sessionUsageTable(db, dialect === 'sqlite' ? 'integer' : 'bigint'),
    },
    '0007_report_indexes': { up: (db: AnyDb) => reportIndexes(db) },
    '0008_ledger_indexes': { up: (db: AnyDb) => ledgerIndexes(db, dialect) },
    '0009_reviews': { up: (db: AnyDb) => reviewsTable(db, dialect === 'sqlite' ? 'integer' : 'bigint') },
    '0010_review_notifications': {
      up: (db: AnyDb) => notificationsTable(db, dialect === 'sqlite' ? 'integer' : 'bigint'),
    },
    '0011_report_covering': { up: (db: AnyDb) => reportCovering(db) },
    // Named to sort before every migration that builds rollups (0012_report_perfunctory, 0013): their
    // flag counts read its column (see migration-queryable.ts).
    '0012_facts_queryable': { up: (db: AnyDb) => reportQueryable(db) },
    '0012_host_posts': {
      up: (db: AnyDb) => hostPostsTable(db, dialect === 'sqlite' ? 'integer' : 'bigint'),
    },
    // Before 0013 by name: the rollups' flag counts read its columns (see migration-perfunctory.ts).
    '0012_report_perfunctory': { up: (db: AnyDb) => reportPerfunctory(db, dialect) },
    '0013_report_rollups': { up: (db: AnyDb) => reportRollups(db, dialect) },
    '0014_report_mismatch_index': { up: (db: AnyDb) => mismatchIndex(db, dialect) },
  };
}

async function initial(db: AnyDb, dialect: Dialect): Promise<void> {
  // SQLite: INTEGER (not BIGINT) so that audit.seq becomes the rowid; both are 64-bit there.
  const int64 = dialect === 'sqlite' ? 'integer' : 'bigint';

  await db.schema
    .createTable('observations')
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('observed_ms', int64, (c) => c.notNull())
    .addColumn('doc', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('observations_pk', ['session', 'id'])
    .execute();
  await db.schema
    .createIndex('observations_by_source')
    .on('observations')
    .columns(['session', 'source_key', 'observed_ms desc', 'id desc'])
    .execute();

  for (const table of ['predictions', 'declines']) {
    await db.schema
      .createTable(table)
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session', 'text', (c) => c.notNull())
      .addColumn('agent', 'text')
      .addColumn('call_digest', 'text', (c) => c.notNull())
      .addColumn('doc_digest', 'text', (c) => c.notNull())
      .addColumn('doc', 'text', (c) => c.notNull())
      .addColumn('created_at', int64, (c) => c.notNull())
      .addColumn('consumed_at', int64)
      // A document is single-use for its call: the inline path relies on this to refuse a replay.
      .addUniqueConstraint(`${table}_single_use`, ['session', 'call_digest', 'doc_digest'])
      .execute();
    await db.schema
      .createIndex(`${table}_by_call`)
      .on(table)
      .columns(['session', 'call_digest', 'created_at desc'])
      .execute();
  }
  // lastConsumedAt: max(consumed_at) for one call is an index seek, not a scan of its every use.
  await db.schema
    .createIndex('predictions_by_consumed')
    .on('predictions')
    .columns(['session', 'call_digest', 'consumed_at'])
    .execute();

  await db.schema
    .createTable('audit')
    .addColumn('seq', int64, (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref', 'text')
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('at_ms', int64)
    .addColumn('call_digest', 'text')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('doc', 'text', (c) => c.notNull())
    .execute();
  // Every index costs a WAL page per append. Columns that are often NULL (agent for local CLI use,
  // ref on every decision row) get partial indexes, so those rows do not touch them.
  for (const column of ['session', 'kind']) {
    await db.schema.createIndex(`audit_by_${column}`).on('audit').columns([column, 'seq']).execute();
  }
  for (const column of ['agent', 'ref', 'call_digest'] as const) {
    await db.schema
      .createIndex(`audit_by_${column}`)
      .on('audit')
      .columns([column, 'seq'])
      .where(column, 'is not', null)
      .execute();
  }
  await db.schema.createIndex('audit_by_at').on('audit').column('at_ms').execute();
  // One outcome per decision: a second one could rewrite what happened (and reset the deny ceiling).
  await db.schema
    .createIndex('audit_one_outcome')
    .on('audit')
    .column('ref')
    .unique()
    .where(sql.ref('kind'), '=', 'outcome')
    .execute();
  await appendOnlyGuard(db, dialect);

  await db.schema
    .createTable('rejections')
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('call_digest', 'text', (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rejections_pk', ['session', 'call_digest'])
    .execute();

  await db.schema
    .createTable('overrides')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('operator', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('session', 'text')
    .addColumn('rule', 'text')
    .addColumn('call_digest', 'text')
    .addColumn('created_at', int64, (c) => c.notNull())
    .addColumn('expires_at', int64, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('overrides_by_expiry').on('overrides').column('expires_at').execute();

  // The chain head (newest seq and hash), one row updated in the same transaction as every append:
  // a deleted tail leaves a valid shorter chain, but no longer the chain the head names. On
  // PostgreSQL it is also the row every append locks, so instances sharing the database take turns.
  await db.schema
    .createTable('audit_head')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('seq', int64, (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.insertInto('audit_head').values({ id: 1, seq: 0, hash: GENESIS_HASH }).execute();
}

/**
 * The store's identity: a random id written once, in the same transaction that creates the table. The
 * CLI pins it outside the store, so a store deleted and recreated, or swapped for another file, is
 * told apart from the one it opened before (see packages/cli/src/store-pin.ts).
 */
async function storeIdentity(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('store_meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db
    .insertInto('store_meta')
    .values({ key: 'store_id', value: randomBytes(16).toString('hex') })
    .execute();
}

/**
 * Refuses UPDATE and DELETE on audit rows. The hash chain is what detects tampering; this guard only
 * stops an honest mistake (a stray UPDATE) from breaking the chain.
 */
async function appendOnlyGuard(db: AnyDb, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite') {
    for (const op of ['update', 'delete']) {
      await sql
        .raw(
          `CREATE TRIGGER audit_no_${op} BEFORE ${op.toUpperCase()} ON audit ` +
            `BEGIN SELECT RAISE(ABORT, 'audit rows are append-only'); END`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ ` +
        `BEGIN RAISE EXCEPTION 'audit rows are append-only'; END $$`,
    )
    .execute(db);
  await sql
    .raw(
      'CREATE TRIGGER audit_append_only BEFORE UPDATE OR DELETE ON audit ' +
        'FOR EACH ROW EXECUTE FUNCTION audit_append_only()',
    )
    .execute(db);
}
