// What a session is for the proxy: the ledger scope that reads and predictions share. An operator's
// pin (--session) wins; then the client's own correlation id in _meta["tollgate/session"]; then the
// MCP session (the Streamable HTTP session id); then this one stdio connection.
export const SESSION_META_KEY = 'tollgate/session';

export interface SessionSources {
  pinned?: string | undefined;
  meta?: Record<string, unknown> | undefined;
  transportSession?: string | undefined;
  connection: string;
}

export type SessionResult = { ok: true; session: string } | { ok: false; message: string };

export function resolveSession(sources: SessionSources): SessionResult {
  if (sources.pinned) return { ok: true, session: sources.pinned };
  const fromMeta = sources.meta?.[SESSION_META_KEY];
  if (fromMeta !== undefined) {
    if (typeof fromMeta !== 'string' || fromMeta.length === 0 || fromMeta.length > 256) {
      return {
        ok: false,
        message: `_meta["${SESSION_META_KEY}"] must be a string of 1 to 256 characters; got ${describe(fromMeta)}`,
      };
    }
    return { ok: true, session: fromMeta };
  }
  return { ok: true, session: sources.transportSession ?? sources.connection };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
