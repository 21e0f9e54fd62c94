// Puts a call into the caller's scope before core sees it: the agent is the token's agent, and the
// session is the store session that agent may use (see sessions.ts). Malformed calls go to core as
// they are: core refuses them with schema_invalid and audits the refusal.
import type { Principal } from './auth.js';
import { scopeSession } from './sessions.js';

export type Bound = { ok: true; call: unknown } | { ok: false; detail: string };

export function bindCall(principal: Principal, call: unknown): Bound {
  if (principal.agent === undefined || typeof call !== 'object' || call === null || Array.isArray(call))
    return { ok: true, call };
  const { session, agent } = call as { session?: unknown; agent?: unknown };
  if (agent !== undefined && agent !== principal.agent)
    return {
      ok: false,
      detail: `this token acts for agent ${JSON.stringify(principal.agent)}, not ${JSON.stringify(agent)}`,
    };
  if (typeof session !== 'string') return { ok: true, call: { ...call, agent: principal.agent } };
  const scoped = scopeSession(principal, session);
  if (!scoped.ok) return scoped;
  return { ok: true, call: { ...call, agent: principal.agent, session: scoped.session } };
}
