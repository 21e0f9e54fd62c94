// Migration 0013: the day rollups (audit-rollup.ts), built from every stored facts row by the same
// aggregate an append adds with. Primary key (day, rule, agent, tool, reason): the report reads the
// whole days of its window as one range of it (rule '' for the rows, the others per rule); on SQLite
// the table is WITHOUT ROWID, the key being the table, so an append's upsert touches one b-tree.
// Migration 0014 adds, for the one list the report still found by scanning the window's gated rows:
//   audit_facts_mismatched (at_ms) WHERE kind = 'outcome' AND mismatched > 0
//                                             the newest mismatches: only outcomes with one (profiled at
//                                             1,000,000 rows: 27 ms → 0.3 ms); no decision touches it
import { CompiledQuery, type CreateTableBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { ROLLUP_KEYS, ROLLUP_REBUILD_SQL, ROLLUP_VALUES } from './audit-rollup.js';
import type { Dialect } from './schema.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
type AnyDb = Kysely<any>;

export async function reportRollups(db: AnyDb, dialect: Dialect): Promise<void> {
  const int64 = dialect === 'sqlite' ? 'integer' : 'bigint';
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  // Columns added in loops: the builder's column-name type is widened to every name.
  let table: CreateTableBuilder<'audit_rollup', string> = db.schema
    .createTable('audit_rollup')
    .addColumn('day', int64, (c) => c.notNull());
  for (const k of ROLLUP_KEYS.slice(1)) table = table.addColumn(k, 'text', (c) => c.notNull());
  for (const v of ROLLUP_VALUES) {
    if (v === 'last_ms') table = table.addColumn(v, int64);
    else table = table.addColumn(v, v === 'brier_sum' ? real : int64, (c) => c.notNull());
  }
  table = table.addPrimaryKeyConstraint('audit_rollup_pk', [...ROLLUP_KEYS]);
  await (dialect === 'sqlite' ? table.modifyEnd(sql`without rowid`) : table).execute();
  for (const statement of ROLLUP_REBUILD_SQL) await db.executeQuery(CompiledQuery.raw(statement, []));
}

export async function mismatchIndex(db: AnyDb, dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('audit_facts_mismatched')
    .on('audit_facts')
    .column('at_ms')
    .where(sql<SqlBool>`kind = 'outcome' and mismatched > 0`)
    .execute();
  if (dialect !== 'sqlite') return;
  // A file with statistics (ANALYZE was run) gets this index's too: the planner otherwise weighs a
  // measured index against an unmeasured one and keeps scanning the measured audit_facts_gated.
  const { rows } = await sql`select 1 from sqlite_master where name = 'sqlite_stat1'`.execute(db);
  if (rows.length > 0) await sql`analyze audit_facts_mismatched`.execute(db);
}
