// Local store faults: one class with a code, so callers (core's gate_unavailable path, the CLI's exit
// codes) can branch on what went wrong without ever seeing a raw driver error or its stack.
export type StoreFaultCode =
  | 'store_unavailable'
  | 'store_corrupt'
  | 'migration_failed'
  | 'duplicate'
  | 'store_failed';

/** One line per code: what it means for the caller. */
export const storeFaultMeanings: Record<StoreFaultCode, string> = {
  store_unavailable:
    'the database cannot be reached or opened (path, permissions, server down, lock timeout)',
  store_corrupt: 'the file or database is not a Tollgate store, or its pages are damaged',
  migration_failed: 'the schema could not be brought up to date',
  duplicate: 'a row with the same key already exists (id, or document already filed for this call)',
  store_failed: 'the database refused the operation for another reason',
};

export class StoreFault extends Error {
  override readonly name = 'StoreFault';
  readonly code: StoreFaultCode;

  constructor(code: StoreFaultCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

const unavailableErrno = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EACCES',
  'EISDIR',
  'ENOTDIR',
  'EROFS',
  'EEXIST',
  'ENOSPC',
  'EPERM',
]);

/** Maps a better-sqlite3, pg or node error to a fault; `doing` names the operation in the message. */
export function toStoreFault(error: unknown, doing: string): StoreFault {
  if (error instanceof StoreFault) return error;
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const detail = error instanceof Error ? error.message : String(error);
  return new StoreFault(classify(code, detail), `${doing}: ${detail}`, { cause: error });
}

function classify(code: string, detail: string): StoreFaultCode {
  if (code.startsWith('SQLITE_')) {
    if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) return 'store_corrupt';
    if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return 'duplicate';
    if (/^SQLITE_(CANTOPEN|BUSY|LOCKED|READONLY|IOERR|PERM|FULL|AUTH)/.test(code)) return 'store_unavailable';
    return 'store_failed';
  }
  if (unavailableErrno.has(code)) return 'store_unavailable';
  // PostgreSQL SQLSTATE: 23505 unique violation; 08 connection, 28 auth, 3D no such database, 53
  // resources, 57 operator intervention; XX001/XX002 damaged data.
  if (code === '23505') return 'duplicate';
  if (/^(08|28|3D|53|57)/.test(code)) return 'store_unavailable';
  if (code === 'XX001' || code === 'XX002') return 'store_corrupt';
  if (/Connection terminated|timeout exceeded when trying to connect|Client was closed/i.test(detail)) {
    return 'store_unavailable';
  }
  return 'store_failed';
}
