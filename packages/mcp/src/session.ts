// What a session is for the proxy: the ledger scope that reads and predictions share. An operator's
// pin (--session) wins. Otherwise the session is bound to the connection — the Streamable HTTP
// session id the SDK issued (random, known only to that client) or the one stdio connection — and a
// client's correlation id in _meta["tollgate/session"] only names a ledger *inside* its connection.
// So no client can read, cite or consume another client's session by sending its id; the price is
// that a client that reconnects starts an empty ledger (unless the operator pins a session).
import { sha256Hex } from '@tollgate/core';

export const SESSION_META_KEY = 'tollgate/session';

/** The call contract's limit on a session name (contracts/schemas/call.json). */
const MAX_SESSION = 256;

export interface SessionSources {
  pinned?: string | undefined;
  meta?: Record<string, unknown> | undefined;
  /** The Streamable HTTP session id (absent over stdio). */
  transportSession?: string | undefined;
  /** This downstream connection's own id: the whole scope over stdio. */
  connection: string;
}

export type SessionResult = { ok: true; session: string } | { ok: false; message: string };

export function resolveSession(sources: SessionSources): SessionResult {
  if (sources.pinned) return { ok: true, session: sources.pinned };
  const scope = sources.transportSession ?? sources.connection;
  const fromMeta = sources.meta?.[SESSION_META_KEY];
  if (fromMeta === undefined) return { ok: true, session: scope };
  if (typeof fromMeta !== 'string' || fromMeta.length === 0 || fromMeta.length > 256) {
    return {
      ok: false,
      message: `_meta["${SESSION_META_KEY}"] must be a string of 1 to 256 characters; got ${describe(fromMeta)}`,
    };
  }
  return { ok: true, session: within(scope, fromMeta) };
}

// The scope never contains "/", so the first "/" ends it and two scopes never yield one name; an id
// too long to fit beside the scope is named by its digest (still only within this connection).
function within(scope: string, id: string): string {
  const joined = `${scope}/${id}`;
  return joined.length <= MAX_SESSION ? joined : `${scope}/sha256:${sha256Hex(id)}`;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
