// Sessions: the operator's pin wins; otherwise the connection is the scope and a _meta correlation id
// only splits it, so two connections never share a ledger whatever ids their clients send.
import { describe, expect, it } from 'vitest';
import { resolveSession } from './session.js';

describe('resolveSession', () => {
  const meta = { 'tollgate/session': 'agent-7' };

  it('prefers the operator pin over everything the client sends', () => {
    expect(resolveSession({ pinned: 'ops', meta, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'ops',
    });
  });

  it('scopes a correlation id to the MCP session, or to the stdio connection', () => {
    expect(resolveSession({ meta, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'http-1/agent-7',
    });
    expect(resolveSession({ meta: {}, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'http-1',
    });
    expect(resolveSession({ meta, connection: 'mcp-stdio-1' })).toEqual({
      ok: true,
      session: 'mcp-stdio-1/agent-7',
    });
    expect(resolveSession({ connection: 'c' })).toEqual({ ok: true, session: 'c' });
  });

  it('never lets two connections meet in one session, whatever ids they send', () => {
    const a = resolveSession({ meta, transportSession: 'http-a', connection: 'ca' });
    const b = resolveSession({ meta, transportSession: 'http-b', connection: 'cb' });
    expect(a.ok && b.ok && a.session !== b.session).toBe(true);
    // B naming A's whole session as its correlation id still lands inside B's own scope.
    const forged = resolveSession({
      meta: { 'tollgate/session': 'http-a/agent-7' },
      transportSession: 'http-b',
      connection: 'cb',
    });
    expect(forged).toEqual({ ok: true, session: 'http-b/http-a/agent-7' });
    const bare = resolveSession({
      meta: { 'tollgate/session': 'http-a' },
      transportSession: 'http-b',
      connection: 'cb',
    });
    expect(bare.ok && bare.session.startsWith('http-b/')).toBe(true);
  });

  it('names a long correlation id by its digest so the session stays within 256 characters', () => {
    const long = resolveSession({
      meta: { 'tollgate/session': 'x'.repeat(256) },
      transportSession: '0b6a2f4e-3c1d-4e59-9d7a-5f0e8c2b1a34',
      connection: 'c',
    });
    expect(long.ok).toBe(true);
    if (long.ok) {
      expect(long.session).toMatch(/^0b6a2f4e-3c1d-4e59-9d7a-5f0e8c2b1a34\/sha256:[0-9a-f]{64}$/);
      expect(long.session.length).toBeLessThanOrEqual(256);
    }
  });

  it('names a malformed correlation id instead of falling back silently', () => {
    for (const bad of [42, '', 'x'.repeat(257), null, ['a']]) {
      const result = resolveSession({ meta: { 'tollgate/session': bad }, connection: 'c' });
      expect(result.ok).toBe(false);
      if (!result.ok)
        expect(result.message).toMatch(/_meta\["tollgate\/session"\] must be a string of 1 to 256/);
    }
  });
});
