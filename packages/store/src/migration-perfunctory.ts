// Migration 0012_report_perfunctory: the facts the exact perfunctory flag needs (audit-facts.ts) —
// unaccepted, filed_ms, read_ms — backfilled for every stored decision carrying a prediction with the
// statements appends use, and the index that makes read_ms one seek:
//   observations_by_time (session, observed_ms)   the newest read of a session up to a moment
// Named to sort before 0013 (the day rollups, whose flag counts read these columns); a store that ran
// 0013 before this existed gets its rollups rebuilt here, so their flag counts follow the new flag.
import type { AuditRow } from '@tollgate/contracts';
import { CompiledQuery, type Kysely } from 'kysely';
import { auditFacts, filedAndReadSql, filedAndReadValues } from './audit-facts.js';
import { ROLLUP_REBUILD_SQL } from './audit-rollup.js';
import { placeholder } from './migration-report.js';
import type { Dialect } from './schema.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
type AnyDb = Kysely<any>;

const PAGE = 2000;

export async function reportPerfunctory(db: AnyDb, dialect: Dialect): Promise<void> {
  const int64 = dialect === 'sqlite' ? 'integer' : 'bigint';
  await db.schema
    .alterTable('audit_facts')
    .addColumn('unaccepted', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('audit_facts').addColumn('filed_ms', int64).execute();
  await db.schema.alterTable('audit_facts').addColumn('read_ms', int64).execute();
  await db.schema
    .createIndex('observations_by_time')
    .on('observations')
    .columns(['session', 'observed_ms'])
    .execute();

  const p = placeholder(dialect);
  const [filed, read] = filedAndReadSql(p, 2, dialect);
  const update = `UPDATE audit_facts SET unaccepted = ${p(1)}, filed_ms = ${filed}, read_ms = ${read}
    WHERE seq = ${p(7)}`;
  for (let after = -1; ; ) {
    const page = (await db
      .selectFrom('audit as a')
      .innerJoin('audit_facts as f', 'f.seq', 'a.seq')
      .select(['a.seq', 'f.at_ms', 'a.doc'])
      .where('f.predicted', '=', 1)
      .where('a.seq', '>', after)
      .orderBy('a.seq')
      .limit(PAGE)
      .execute()) as { seq: number | string; at_ms: number | string; doc: string }[];
    for (const stored of page) {
      const seq = Number(stored.seq);
      const row = JSON.parse(stored.doc) as AuditRow;
      const facts = auditFacts({ ...row, seq }, Number(stored.at_ms));
      const values = [facts.unaccepted, ...filedAndReadValues(row, facts), seq];
      await db.executeQuery(CompiledQuery.raw(update, values));
    }
    const last = page.at(-1);
    if (last === undefined || page.length < PAGE) break;
    after = Number(last.seq);
  }

  const built = await db
    .selectFrom('kysely_migration')
    .select('name')
    .where('name', '=', '0013_report_rollups')
    .execute();
  if (built.length === 0) return;
  await db.deleteFrom('audit_rollup').execute();
  for (const statement of ROLLUP_REBUILD_SQL) await db.executeQuery(CompiledQuery.raw(statement, []));
}
