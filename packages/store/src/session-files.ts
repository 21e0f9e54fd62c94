// The files a session wrote and read, as the gate saw them decided and observed: one row per
// (session, path) with the time of the latest write and of the latest read. Core asks which of the
// files a command would run as scripts were written after they were last read (the two-step attack:
// write a script, then run it). Both stores share the SQL; only parameter styles differ.
import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations must not depend on the current table types.
export async function sessionFilesTable(db: Kysely<any>, int64: 'integer' | 'bigint'): Promise<void> {
  await db.schema
    .createTable('session_files')
    .addColumn('session', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('written_ms', int64)
    .addColumn('read_ms', int64)
    .addPrimaryKeyConstraint('session_files_pk', ['session', 'path'])
    .execute();
}

/** At most this many paths per call are recorded or asked about; more is a caller's bug, not a hot path. */
export const MAX_PATHS = 256;

export const SQLITE = {
  write: `INSERT INTO session_files (session, path, written_ms, read_ms) VALUES (?, ?, ?, NULL)
          ON CONFLICT (session, path) DO UPDATE SET written_ms = excluded.written_ms`,
  read: 'UPDATE session_files SET read_ms = ? WHERE session = ? AND path = ?',
  unread: `SELECT path FROM session_files WHERE session = ? AND path IN (SELECT value FROM json_each(?))
           AND written_ms IS NOT NULL AND (read_ms IS NULL OR read_ms < written_ms) ORDER BY path`,
};

export const PG = {
  write: {
    name: 'tg_files_write',
    text: `INSERT INTO session_files (session, path, written_ms, read_ms)
           SELECT $1, p, $3, NULL FROM unnest($2::text[]) AS p
           ON CONFLICT (session, path) DO UPDATE SET written_ms = excluded.written_ms`,
  },
  read: {
    name: 'tg_files_read',
    text: 'UPDATE session_files SET read_ms = $3 WHERE session = $1 AND path = ANY($2::text[])',
  },
  unread: {
    name: 'tg_files_unread',
    text: `SELECT path FROM session_files WHERE session = $1 AND path = ANY($2::text[])
           AND written_ms IS NOT NULL AND (read_ms IS NULL OR read_ms < written_ms) ORDER BY path`,
  },
};
