// The host post-tool events that already paired with the pre-tool decision they report on: one row
// per (session, host_ref), written by the first post event for that tool-use id and never again. A
// second post for the same id (a forgery carrying an id read from the host's transcript, or a replay)
// finds the row taken and is recorded unattested. Both stores share the SQL; only parameter styles differ.
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function hostPostsTable(db: Kysely<any>, int64: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('host_posts')
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('host_ref', 'text', (c) => c.notNull())
    .addColumn('at', int64, (c) => c.notNull())
    .addPrimaryKeyConstraint('host_posts_pk', ['session', 'host_ref'])
    .execute();
}

export const SQLITE = {
  claim: `INSERT INTO host_posts (session, host_ref, at) VALUES (?, ?, ?)
          ON CONFLICT (session, host_ref) DO NOTHING`,
};

export const PG = {
  claim: {
    name: 'tg_host_post_claim',
    text: `INSERT INTO host_posts (session, host_ref, at) VALUES ($1, $2, $3)
           ON CONFLICT (session, host_ref) DO NOTHING`,
  },
};
