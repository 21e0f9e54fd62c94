// The files a session wrote and read, as the gate saw them decided and observed: one row per
// (session, path) with the time of the latest write and of the latest read. Core asks which of the
// files a command would run as scripts were written after they were last read (the two-step attack:
// write a script, then run it), and which files a command relies on the session ever wrote (an
// ignore file that would vouch for a removal; a path asked as `DIR/` is a tree, written when the
// session wrote it or anything below it), and what it wrote below a directory whose code a test
// runner is about to load. Both stores share the SQL; only parameter styles differ.
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

/** Directories asked about as prefixes ending in `/` (`/` itself stays `/`, everything). */
export function dirPrefixes(dirs: readonly string[]): string[] {
  return dirs.slice(0, MAX_PATHS).map((dir) => (dir.endsWith('/') ? dir : `${dir}/`));
}

/**
 * The write time of a pending write (a background job's, that may land at any later time): after
 * every read, so none clears it, and kept over a later ordinary write by the upserts' max — no
 * column of its own is needed.
 */
export const PENDING_MS = Number.MAX_SAFE_INTEGER;

// A written path ending in `/` is a tree: the command filled the directory with files it did not
// name (`cp -r`, `tar -x -C`, `rsync`), so it counts as a write of every path below it. A read is
// kept for any path, so that reading one file below a tree clears that file alone.
export const SQLITE = {
  write: `INSERT INTO session_files (session, path, written_ms, read_ms) VALUES (?, ?, ?, NULL)
          ON CONFLICT (session, path) DO UPDATE
          SET written_ms = max(COALESCE(session_files.written_ms, excluded.written_ms), excluded.written_ms)`,
  read: `INSERT INTO session_files (session, path, written_ms, read_ms) VALUES (?, ?, NULL, ?)
         ON CONFLICT (session, path) DO UPDATE SET read_ms = excluded.read_ms`,
  unread: `SELECT DISTINCT q.value AS path FROM json_each(@list) q
           WHERE EXISTS (
             SELECT 1 FROM session_files w
             WHERE w.session = @session AND w.written_ms IS NOT NULL
               AND (w.path = q.value OR (substr(w.path, -1) = '/' AND substr(q.value, 1, length(w.path)) = w.path))
               AND w.written_ms > COALESCE(
                 (SELECT r.read_ms FROM session_files r WHERE r.session = @session AND r.path = q.value), -1))
           ORDER BY path`,
  written: `SELECT DISTINCT q.value AS path FROM json_each(@list) q
            WHERE EXISTS (
              SELECT 1 FROM session_files w
              WHERE w.session = @session AND w.written_ms IS NOT NULL
                AND (w.path = q.value OR (substr(w.path, -1) = '/' AND substr(q.value, 1, length(w.path)) = w.path)
                     OR (substr(q.value, -1) = '/' AND (w.path = substr(q.value, 1, length(q.value) - 1)
                                                        OR substr(w.path, 1, length(q.value)) = q.value))))
            ORDER BY path`,
  // When the session began: its first audit row (audit_by_session is (session, seq)).
  started: 'SELECT at_ms FROM audit WHERE session = ? ORDER BY seq LIMIT 1',
  // Written paths below any of the directories (each given ending in `/`), newest write first, each
  // with whether its write is pending (a background job's, that may not have landed yet).
  under: `SELECT w.path, w.written_ms = @pending AS pending FROM session_files w
          WHERE w.session = @session AND w.written_ms IS NOT NULL
            AND EXISTS (SELECT 1 FROM json_each(@list) q WHERE substr(w.path, 1, length(q.value)) = q.value)
          ORDER BY w.written_ms DESC, w.path LIMIT @limit`,
};

export const PG = {
  write: {
    name: 'tg_files_write',
    text: `INSERT INTO session_files (session, path, written_ms, read_ms)
           SELECT DISTINCT $1, p, $3::bigint, NULL::bigint FROM unnest($2::text[]) AS p
           ON CONFLICT (session, path) DO UPDATE
           SET written_ms = GREATEST(session_files.written_ms, excluded.written_ms)`,
  },
  read: {
    name: 'tg_files_read',
    text: `INSERT INTO session_files (session, path, written_ms, read_ms)
           SELECT DISTINCT $1, p, NULL::bigint, $3::bigint FROM unnest($2::text[]) AS p
           ON CONFLICT (session, path) DO UPDATE SET read_ms = excluded.read_ms`,
  },
  unread: {
    name: 'tg_files_unread',
    text: `SELECT DISTINCT q.p AS path FROM unnest($2::text[]) AS q(p)
           WHERE EXISTS (
             SELECT 1 FROM session_files w
             WHERE w.session = $1 AND w.written_ms IS NOT NULL
               AND (w.path = q.p OR (right(w.path, 1) = '/' AND left(q.p, length(w.path)) = w.path))
               AND w.written_ms > COALESCE(
                 (SELECT r.read_ms FROM session_files r WHERE r.session = $1 AND r.path = q.p), -1))
           ORDER BY path`,
  },
  written: {
    name: 'tg_files_written',
    text: `SELECT DISTINCT q.p AS path FROM unnest($2::text[]) AS q(p)
           WHERE EXISTS (
             SELECT 1 FROM session_files w
             WHERE w.session = $1 AND w.written_ms IS NOT NULL
               AND (w.path = q.p OR (right(w.path, 1) = '/' AND left(q.p, length(w.path)) = w.path)
                    OR (right(q.p, 1) = '/' AND (w.path = left(q.p, length(q.p) - 1)
                                                 OR left(w.path, length(q.p)) = q.p))))
           ORDER BY path`,
  },
  under: {
    name: 'tg_files_under',
    text: `SELECT w.path, w.written_ms = $4::bigint AS pending FROM session_files w
           WHERE w.session = $1 AND w.written_ms IS NOT NULL
             AND EXISTS (SELECT 1 FROM unnest($2::text[]) AS q(p) WHERE left(w.path, length(q.p)) = q.p)
           ORDER BY w.written_ms DESC, w.path LIMIT $3`,
  },
  started: {
    name: 'tg_session_started',
    text: 'SELECT at_ms FROM audit WHERE session = $1 ORDER BY seq LIMIT 1',
  },
};
