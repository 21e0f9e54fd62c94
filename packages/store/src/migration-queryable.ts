// Migration 0012_facts_queryable (added after 0014; named to sort before the migrations that build the
// day rollups, whose flag counts read it): audit_facts.queryable_unread, the exact "declined while queryable"
// fact of a decline recorded with its rules' suggested reads (audit-facts.ts). Older rows keep null:
// their declines did not record which reads were suggested, and the flag keeps its approximation for
// them (report-sums.ts), so counts already in the day rollups stay what they were.
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
type AnyDb = Kysely<any>;

export async function reportQueryable(db: AnyDb): Promise<void> {
  await db.schema.alterTable('audit_facts').addColumn('queryable_unread', 'integer').execute();
}
