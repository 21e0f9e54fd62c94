// Migration 0004: the report tables (audit_facts, audit_rules) and their indexes, backfilled from
// every stored audit row's `doc` in seq order with the very statements appends use.
//
// Indexes, and the queries they serve:
//   audit_facts (seq)                         primary key: joins from audit_rules, ref_seq, prev_seq
//   audit_facts_by_at (at_ms)                 every report: the window is a range scan over narrow rows
//   audit_facts_prev (call_digest, session, seq) WHERE gated = 1
//                                             the append's prev_seq lookup (one seek per gated decision)
//   audit_rules (seq, rule)                   primary key: a row's rules (by-rule views, outcome copies)
//   audit_rules_by_rule (rule, at_ms, kind)   the rails' history of one rule, and the --rule filter
// Migration 0007 adds two more, each touched only by the rows it covers:
//   audit_rules_by_at (at_ms)                 the per-rule view: a range scan of the window's rule rows
//                                             (pass decisions have none), each joined to its facts by seq
//   audit_facts_gated (at_ms) WHERE gated = 1 OR kind = 'outcome'
//                                             the heavy figures, latencies, flags and refusal endings:
//                                             only the window's gated decisions and outcomes, not every pass
// Migration 0011 makes the per-rule view's index covering (profiled: the lookup of each rule row's
// table row cost more than the rest of that view):
//   audit_rules_window (at_ms, rule, seq)     replaces audit_rules_by_at: the window's rule rows with
//                                             their rule and seq from the index alone, then each
//                                             row's facts by primary key
import type { AuditRow } from '@tollgate/contracts';
import { CompiledQuery, type Kysely, type SqlBool, sql } from 'kysely';
import {
  auditFacts,
  factsInsertSql,
  factsValues,
  outcomeRulesSql,
  ruleKind,
  uniqueRules,
} from './audit-facts.js';
import type { Dialect } from './schema.js';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
type AnyDb = Kysely<any>;

const BACKFILL_PAGE = 2000;

export async function reportFacts(db: AnyDb, dialect: Dialect): Promise<void> {
  const int64 = dialect === 'sqlite' ? 'integer' : 'bigint';
  const real = dialect === 'sqlite' ? 'real' : 'double precision';
  let table = db.schema
    .createTable('audit_facts')
    .addColumn('seq', int64, (c) => c.primaryKey())
    .addColumn('at_ms', int64, (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('agent', 'text')
    .addColumn('tool', 'text')
    .addColumn('call_digest', 'text')
    .addColumn('outcome', 'text');
  for (const flag of ['gated', 'dry_run', 'would_reject', 'escalated', 'overridden', 'predicted'])
    table = table.addColumn(flag, 'integer', (c) => c.notNull());
  table = table
    .addColumn('reason', 'text')
    .addColumn('evidence_max_ms', int64)
    .addColumn('evidence_min_ms', int64)
    .addColumn('decline_attempts', 'integer')
    .addColumn('directive_ms', real);
  for (const count of ['matched', 'mismatched', 'unverifiable'])
    table = table.addColumn(count, 'integer', (c) => c.notNull());
  await table
    .addColumn('brier_sum', real)
    .addColumn('brier_n', 'integer', (c) => c.notNull())
    .addColumn('ref_seq', int64)
    .addColumn('prev_seq', int64)
    .execute();
  await db.schema.createIndex('audit_facts_by_at').on('audit_facts').column('at_ms').execute();
  await db.schema
    .createIndex('audit_facts_prev')
    .on('audit_facts')
    .columns(['call_digest', 'session', 'seq'])
    .where(sql.ref('gated'), '=', 1)
    .execute();

  await db.schema
    .createTable('audit_rules')
    .addColumn('seq', int64, (c) => c.notNull())
    .addColumn('rule', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('at_ms', int64, (c) => c.notNull())
    .addPrimaryKeyConstraint('audit_rules_pk', ['seq', 'rule'])
    .execute();
  await db.schema
    .createIndex('audit_rules_by_rule')
    .on('audit_rules')
    .columns(['rule', 'at_ms', 'kind'])
    .execute();

  await backfill(db, dialect);
}

export async function reportIndexes(db: AnyDb): Promise<void> {
  await db.schema.createIndex('audit_rules_by_at').on('audit_rules').column('at_ms').execute();
  await db.schema
    .createIndex('audit_facts_gated')
    .on('audit_facts')
    .column('at_ms')
    .where(sql<SqlBool>`gated = 1 or kind = 'outcome'`)
    .execute();
}

export async function reportCovering(db: AnyDb): Promise<void> {
  await db.schema
    .createIndex('audit_rules_window')
    .on('audit_rules')
    .columns(['at_ms', 'rule', 'seq'])
    .execute();
  await db.schema.dropIndex('audit_rules_by_at').execute();
}

async function backfill(db: AnyDb, dialect: Dialect): Promise<void> {
  const p = placeholder(dialect);
  // Migration 0004's columns: the later ones are added, and backfilled, by their own migrations.
  const factsSql = factsInsertSql(p, dialect, true);
  const outcomeSql = outcomeRulesSql(p);
  const ruleSql = `INSERT INTO audit_rules (seq, rule, kind, at_ms) VALUES (${p(1)}, ${p(2)}, ${p(3)}, ${p(4)})`;
  for (let after = -1; ; ) {
    const page = (await db
      .selectFrom('audit')
      .select(['seq', 'at_ms', 'doc'])
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(BACKFILL_PAGE)
      .execute()) as { seq: number | string; at_ms: number | string | null; doc: string }[];
    for (const stored of page) {
      const row = JSON.parse(stored.doc) as AuditRow;
      const atMs = stored.at_ms === null ? null : Number(stored.at_ms);
      const facts = auditFacts({ ...row, seq: Number(stored.seq) }, atMs);
      await db.executeQuery(CompiledQuery.raw(factsSql, factsValues(row, facts, true)));
      const kind = ruleKind(row);
      if (kind !== undefined)
        for (const rule of uniqueRules(row))
          await db.executeQuery(CompiledQuery.raw(ruleSql, [facts.seq, rule, kind, facts.at_ms]));
      else if (row.kind === 'outcome' && row.ref !== undefined)
        await db.executeQuery(CompiledQuery.raw(outcomeSql, [facts.seq, facts.at_ms, row.ref]));
    }
    const last = page.at(-1);
    if (last === undefined || page.length < BACKFILL_PAGE) return;
    after = Number(last.seq);
  }
}

export function placeholder(dialect: Dialect): (i: number) => string {
  return dialect === 'sqlite' ? () => '?' : (i) => `$${i}`;
}
