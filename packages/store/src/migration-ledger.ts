// Migration 0008: indexes for preconditions' ledger windows (ledger-window.ts), so a requirement
// naming a tool finds that tool's newest events with one index range however long the session is.
//   observations_by_tool (session, TOOL(source_key), observed_ms)
//       TOOL is the `tool` of a tool read's canonical key {"args":…,"tool":NAME}; NULL for shell reads.
//       SQLite reads it with json_extract (valid JSON only); PostgreSQL with a regular expression on
//       the key's ending (no cast that could fail an insert), which leaves out names holding `"` or `\`.
//       Either way it only narrows: core matches each row's parsed source.
//   audit_facts_dispatched (session, tool, seq) WHERE a non-dry pass or dispatch decision
import { type Kysely, sql } from 'kysely';
import { TOOL_OF_KEY } from './ledger-window.js';
import type { Dialect } from './schema.js';

/** The indexed expression: a tool read's tool name from its source key (must match the queries' text). */

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function ledgerIndexes(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql
    .raw(`CREATE INDEX observations_by_tool ON observations (session, ${TOOL_OF_KEY[dialect]}, observed_ms)`)
    .execute(db);
  await sql
    .raw(
      `CREATE INDEX audit_facts_dispatched ON audit_facts (session, tool, seq)
       WHERE kind = 'decision' AND dry_run = 0 AND outcome IN ('pass', 'dispatch')`,
    )
    .execute(db);
}
