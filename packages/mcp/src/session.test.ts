// Session precedence: pin, then _meta correlation id, then the MCP session, then the connection.
import { describe, expect, it } from 'vitest';
import { resolveSession } from './session.js';

describe('resolveSession', () => {
  const meta = { 'tollgate/session': 'agent-7' };
  it('prefers the operator pin, then _meta, then the MCP session, then the connection', () => {
    expect(resolveSession({ pinned: 'ops', meta, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'ops',
    });
    expect(resolveSession({ meta, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'agent-7',
    });
    expect(resolveSession({ meta: {}, transportSession: 'http-1', connection: 'c' })).toEqual({
      ok: true,
      session: 'http-1',
    });
    expect(resolveSession({ connection: 'c' })).toEqual({ ok: true, session: 'c' });
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
