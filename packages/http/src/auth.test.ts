// Token lookup, session scopes and the bind rule, without a server.
import { describe, expect, test } from 'vitest';
import { tokenTable } from './auth.js';
import { assertBindable, isLoopback } from './bind.js';
import { reachesSession, scopeQuery, scopeSession } from './sessions.js';

const A = 'tok-alice-0123456789abcdef';
const B = 'tok-bob-0123456789abcdef00';
const OP = 'tok-operator-0123456789abc';
const table = tokenTable([
  { token: A, agent: 'alice' },
  { token: B, agent: 'bob', sessions: ['release-*', 'ci'] },
  { token: OP, agent: 'ops', operator: true },
]);

describe('tokenTable', () => {
  test('maps a bearer token to its agent; anything else is nobody', () => {
    expect(table.authenticate(`Bearer ${A}`)).toEqual({ agent: 'alice', operator: false });
    expect(table.authenticate(`bearer ${OP}`)).toMatchObject({ agent: 'ops', operator: true });
    for (const header of [
      undefined,
      '',
      A,
      `Bearer ${A}x`,
      `Basic ${A}`,
      `Bearer ${A.slice(0, -1)}`,
      'Bearer ',
    ])
      expect(table.authenticate(header)).toBeUndefined();
  });

  test('with no tokens everyone is the local operator (open mode)', () => {
    const open = tokenTable([]);
    expect(open.open).toBe(true);
    expect(open.authenticate(undefined)).toEqual({ operator: true });
  });

  test('refuses configs that would let agents reach each other', () => {
    const overlap = () =>
      tokenTable([
        { token: A, agent: 'alice', sessions: ['deploy-*'] },
        { token: B, agent: 'bob', sessions: ['deploy-7'] },
      ]);
    expect(overlap).toThrow(/both granted sessions/);
    expect(() => tokenTable([{ token: A, agent: 'a/b' }])).toThrow(/may not contain "\/"/);
    expect(() => tokenTable([{ token: A, agent: 'a', sessions: ['x/y'] }])).toThrow(/may not contain/);
    expect(() =>
      tokenTable([
        { token: A, agent: 'a' },
        { token: A, agent: 'b' },
      ]),
    ).toThrow(/repeats/);
  });
});

describe('grants too broad to give a token', () => {
  test('refuses *, empty, mid-string and short or id-like wildcards, and the MCP proxy names, at start-up', () => {
    for (const grant of [
      '*',
      '',
      ' ',
      '**',
      'a*',
      'ab*',
      'rel*ase',
      '5c1d*',
      'deadbeef-*',
      '0-*',
      'mcp-*',
      'm*',
      'mcp-stdio-*',
      'mcp-http-1234',
    ]) {
      expect(
        () => tokenTable([{ token: A, agent: 'alice', sessions: [grant] }]),
        JSON.stringify(grant),
      ).toThrow(/session grant/);
    }
    for (const grant of ['release-*', 'ci-*', 'deploy-7', '5c1d0a7e-2f4b-4c8e-9a61-3b7d2e8f0c11'])
      expect(() => tokenTable([{ token: A, agent: 'alice', sessions: [grant] }]), grant).not.toThrow();
  });

  test("reserves the adapters' agent names", () => {
    for (const agent of ['claude-code', 'Claude-Code', 'tollgate-mcp', 'tollgate'])
      expect(() => tokenTable([{ token: A, agent }]), agent).toThrow(/is reserved/);
  });
});

describe('hook credentials', () => {
  test('hook: true marks the principal; a token cannot be both hook and operator', () => {
    const t = tokenTable([{ token: 'hook-cred-0123456789abcdefgh', agent: 'laptop', hook: true }]);
    expect(t.authenticate('Bearer hook-cred-0123456789abcdefgh')).toMatchObject({
      agent: 'laptop',
      hook: true,
    });
    expect(() =>
      tokenTable([{ token: 'both-0123456789abcdefgh', agent: 'x', hook: true, operator: true }]),
    ).toThrow(/both hook and operator/);
  });
});

describe('scopeSession', () => {
  test('an agent without a list gets a private namespace', () => {
    expect(scopeSession({ agent: 'alice', operator: false }, 's1')).toEqual({
      ok: true,
      session: 'alice/s1',
    });
    expect(scopeSession({ agent: 'alice', operator: false }, 'bob/s1').ok).toBe(false);
  });

  test('an agent with a list uses exactly those names', () => {
    const bob = { agent: 'bob', operator: false, sessions: ['release-*', 'ci'] };
    expect(scopeSession(bob, 'release-42')).toEqual({ ok: true, session: 'release-42' });
    expect(scopeSession(bob, 'ci')).toEqual({ ok: true, session: 'ci' });
    expect(scopeSession(bob, 'ci2').ok).toBe(false);
  });

  test('open mode passes sessions through', () => {
    expect(scopeSession({ operator: true }, 'a/b')).toEqual({ ok: true, session: 'a/b' });
  });

  test('audit queries: agents see their own rows, operators everyone', () => {
    const alice = { agent: 'alice', operator: false };
    expect(scopeQuery(alice, {})).toEqual({ ok: true, query: { agent: 'alice' } });
    expect(scopeQuery(alice, { session: 's' })).toEqual({
      ok: true,
      query: { agent: 'alice', session: 'alice/s' },
    });
    expect(scopeQuery(alice, { agent: 'bob' }).ok).toBe(false);
    expect(scopeQuery({ agent: 'ops', operator: true }, { agent: 'bob' })).toEqual({
      ok: true,
      query: { agent: 'bob' },
    });
  });
});

describe('reachesSession (whose review requests an agent may follow)', () => {
  test('its private namespace or its grants; operators and open mode every session', () => {
    const alice = { agent: 'alice', operator: false };
    expect(reachesSession(alice, 'alice/s1')).toBe(true);
    expect(reachesSession(alice, 'alice')).toBe(false);
    expect(reachesSession(alice, 'alicex/s1')).toBe(false);
    expect(reachesSession(alice, 'mcp-stdio-1')).toBe(false);
    const bob = { agent: 'bob', operator: false, sessions: ['release-*', 'ci'] };
    expect(reachesSession(bob, 'release-9')).toBe(true);
    expect(reachesSession(bob, 'ci')).toBe(true);
    expect(reachesSession(bob, 'bob/ci')).toBe(false);
    expect(reachesSession({ agent: 'ops', operator: true }, 'alice/s1')).toBe(true);
    expect(reachesSession({ operator: true }, 'anything')).toBe(true);
  });
});

describe('bind rule', () => {
  test('loopback addresses', () => {
    for (const h of ['127.0.0.1', '127.8.0.1', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1'])
      expect(isLoopback(h)).toBe(true);
    for (const h of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.2', 'example.com', '128.0.0.1'])
      expect(isLoopback(h)).toBe(false);
  });

  test('no tokens → only loopback, with a clear error', () => {
    expect(() => assertBindable('127.0.0.1', false)).not.toThrow();
    expect(() => assertBindable('0.0.0.0', false)).toThrow(
      /refusing to listen on 0.0.0.0 with no tokens configured/,
    );
    expect(() => assertBindable('0.0.0.0', true)).not.toThrow();
  });
});
