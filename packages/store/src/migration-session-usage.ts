// Migration 0006: the per-session usage counters the ledger caps read (session-usage.ts), kept apart
// from that module so the hot path it serves never loads kysely.
import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function sessionUsageTable(db: Kysely<any>, int64: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('session_usage')
    .addColumn('session', 'text', (c) => c.primaryKey())
    .addColumn('observations', int64, (c) => c.notNull())
    .addColumn('excerpt_bytes', int64, (c) => c.notNull())
    .execute();
  // Sessions recorded before the table existed: their stored documents' bytes stand in for the
  // excerpts' (an overcount by the other fields, never an undercount).
  const bytes = int64 === 'integer' ? sql`length(CAST(doc AS BLOB))` : sql`octet_length(doc)`;
  await sql`INSERT INTO session_usage (session, observations, excerpt_bytes)
            SELECT session, count(*), sum(${bytes}) FROM observations GROUP BY session`.execute(db);
}
