// Which store session an agent's request names. An agent with a `sessions` list uses those raw names
// (lists of different agents may not overlap, checked at start); an agent without one gets a private
// namespace "<agent>/<session>". Either way no request can reach another agent's ledger or tickets.
import type { Token } from '@tollgate/contracts';
import { TollgateFault } from '@tollgate/core';
import type { Principal } from './auth.js';

export type Scoped = { ok: true; session: string } | { ok: false; detail: string };

export function scopeSession(principal: Principal, session: string): Scoped {
  const { agent, sessions } = principal;
  if (agent === undefined) return { ok: true, session };
  if (session.includes('/'))
    return { ok: false, detail: `session names may not contain "/": it separates agent namespaces` };
  if (sessions === undefined) return { ok: true, session: `${agent}/${session}` };
  if (sessions.some((grant) => grantCovers(grant, session))) return { ok: true, session };
  return {
    ok: false,
    detail: `agent ${JSON.stringify(agent)} may not use session ${JSON.stringify(session)}`,
  };
}

/** True when this principal may see a row or observation of `agent` (operators and open mode see all). */
export function mayRead(principal: Principal, agent: string | undefined): boolean {
  return principal.agent === undefined || principal.operator || agent === principal.agent;
}

/** True when this principal acts for `agent` (open mode acts for anyone). */
export function owns(principal: Principal, agent: string | undefined): boolean {
  return principal.agent === undefined || agent === principal.agent;
}

/**
 * True when a stored session is one this principal's requests reach (its private namespace or its
 * grants); operators and open mode reach every session.
 */
export function reachesSession(principal: Principal, stored: string): boolean {
  const { agent, sessions } = principal;
  if (agent === undefined || principal.operator) return true;
  if (sessions === undefined) return stored.startsWith(`${agent}/`);
  return sessions.some((grant) => grantCovers(grant, stored));
}

function grantCovers(grant: string, session: string): boolean {
  return grant.endsWith('*') ? session.startsWith(grant.slice(0, -1)) : session === grant;
}

function grantsOverlap(a: string, b: string): boolean {
  const pa = a.endsWith('*') ? a.slice(0, -1) : undefined;
  const pb = b.endsWith('*') ? b.slice(0, -1) : undefined;
  if (pa !== undefined && pb !== undefined) return pa.startsWith(pb) || pb.startsWith(pa);
  if (pa !== undefined) return b.startsWith(pa);
  if (pb !== undefined) return a.startsWith(pb);
  return a === b;
}

/** Session names the other adapters write raw: the MCP proxy's per-connection sessions. */
const ADAPTER_SESSION_PREFIXES = ['mcp-stdio-', 'mcp-http-'];
const MIN_PREFIX = 3;

/**
 * Why a grant is too broad to give a token, or undefined. Raw session names are shared with the
 * other adapters — the CLI hook files under Claude Code's session ids (UUIDs), the MCP proxy under
 * mcp-stdio-/mcp-http- connection ids or MCP session ids (UUIDs) — so `*`, an empty grant, a
 * wildcard anywhere but the end, a prefix shorter than 3 characters or made only of hex digits and
 * dashes (it matches such ids), or one covering the proxy's names would reach their ledgers.
 */
export function grantProblem(grant: string): string | undefined {
  if (grant.trim() === '') return 'is empty';
  if (grant.includes('/')) return 'may not contain "/"';
  const star = grant.indexOf('*');
  if (star >= 0 && star !== grant.length - 1)
    return 'may use "*" only once, at the end (a prefix grant such as "release-*")';
  const prefix = star >= 0 ? grant.slice(0, -1) : grant;
  const lc = prefix.toLowerCase();
  if (ADAPTER_SESSION_PREFIXES.some((p) => lc.startsWith(p) || (star >= 0 && p.startsWith(lc))))
    return "would cover the MCP proxy's own session names (mcp-stdio-…, mcp-http-…)";
  if (star < 0) return undefined;
  if (prefix.length < MIN_PREFIX)
    return `is a wildcard with a prefix shorter than ${MIN_PREFIX} characters: it would cover other adapters' sessions`;
  if (/^[0-9a-f-]+$/i.test(prefix))
    return "is a wildcard whose prefix is only hex digits and dashes: it would cover Claude Code's and MCP session ids (UUIDs)";
  return undefined;
}

/**
 * Refuses a config where a grant is too broad (see grantProblem) or two agents were granted the same
 * session (they could cite each other's reads).
 */
export function checkGrants(tokens: readonly Token[]): void {
  const grants = tokens.flatMap((t) => (t.sessions ?? []).map((g) => ({ agent: t.agent, grant: g })));
  for (const { grant, agent } of grants) {
    const problem = grantProblem(grant);
    if (problem)
      throw new TollgateFault(
        'config_invalid',
        `agent ${JSON.stringify(agent)}: session grant ${JSON.stringify(grant)} ${problem}; grant exact session names or a specific prefix such as "release-*"`,
      );
    const clash = grants.find((o) => o.agent !== agent && grantsOverlap(o.grant, grant));
    if (clash) {
      throw new TollgateFault(
        'config_invalid',
        `agents ${JSON.stringify(agent)} and ${JSON.stringify(clash.agent)} were both granted sessions matching ${JSON.stringify(grant)}; an agent must not reach another agent's observations or predictions`,
      );
    }
  }
}

/** An audit query as this principal may run it: agents see their own rows, operators everyone's. */
export function scopeQuery<Q extends { session?: string; agent?: string }>(
  principal: Principal,
  query: Q,
): { ok: true; query: Q } | { ok: false; detail: string } {
  if (principal.agent === undefined || principal.operator) return { ok: true, query };
  if (query.agent !== undefined && query.agent !== principal.agent)
    return { ok: false, detail: `agent ${JSON.stringify(principal.agent)} may read only its own rows` };
  if (query.session === undefined) return { ok: true, query: { ...query, agent: principal.agent } };
  const scoped = scopeSession(principal, query.session);
  if (!scoped.ok) return scoped;
  return { ok: true, query: { ...query, agent: principal.agent, session: scoped.session } };
}
