// Bearer tokens → principals. Each presented token is hashed and compared against every configured
// digest with timingSafeEqual, without stopping at the first match, so timing reveals nothing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Token } from '@tollgate/contracts';
import { TollgateFault } from '@tollgate/core';
import { AGENT as HOOK_AGENT, HOST_NAMES } from '@tollgate/hooks';
import { checkGrants } from './sessions.js';

/** Who is calling. `agent` is absent only in open mode (no tokens configured, loopback only). */
export interface Principal {
  agent?: string;
  operator: boolean;
  /** Raw session names or `prefix*` patterns this agent may use; absent = a private namespace. */
  sessions?: readonly string[];
  /** A hook credential (`hook: true`): only POST /v1/hooks/claude-code, and its reads are attested. */
  hook?: boolean;
}

export const OPEN_PRINCIPAL: Principal = { operator: true };

export interface TokenTable {
  readonly open: boolean;
  /** The principal for an Authorization header value, or undefined. */
  authenticate(header: string | undefined): Principal | undefined;
}

/**
 * Agent names the adapters record under: the hooks (`codex`, `gemini`, `cursor`, `copilot`, and
 * `claude-code`, also the name Claude
 * Code gives itself as an MCP client, which the MCP proxy records), the MCP proxy (`tollgate-mcp`).
 * A token named after one would read and act on their rows.
 */
export const RESERVED_AGENTS: ReadonlySet<string> = new Set([
  HOOK_AGENT,
  ...HOST_NAMES,
  'tollgate-mcp',
  'tollgate',
]);

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

export function tokenTable(tokens: readonly Token[] = []): TokenTable {
  checkTokens(tokens);
  const entries = tokens.map((t) => ({
    digest: digest(t.token),
    principal: {
      agent: t.agent,
      operator: t.operator === true,
      ...(t.hook === true ? { hook: true } : {}),
      ...(t.sessions !== undefined ? { sessions: [...t.sessions] } : {}),
    } satisfies Principal,
  }));
  return {
    open: entries.length === 0,
    authenticate(header) {
      if (entries.length === 0) return OPEN_PRINCIPAL;
      const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
      if (!match?.[1]) return undefined;
      const presented = digest(match[1]);
      let found: Principal | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(presented, entry.digest) && !found) found = entry.principal;
      }
      return found;
    },
  };
}

function checkTokens(tokens: readonly Token[]): void {
  const seen = new Set<string>();
  for (const [i, t] of tokens.entries()) {
    if (seen.has(t.token)) throw new TollgateFault('config_invalid', `tokens[${i}] repeats an earlier token`);
    seen.add(t.token);
    if (t.hook === true && t.operator === true)
      throw new TollgateFault(
        'config_invalid',
        `tokens[${i}] is both hook and operator: a hook credential may only call the hook route; give the operator its own token`,
      );
    if (RESERVED_AGENTS.has(t.agent.trim().toLowerCase()))
      throw new TollgateFault(
        'config_invalid',
        `tokens[${i}].agent ${JSON.stringify(t.agent)} is reserved: the adapters record under it (${[...RESERVED_AGENTS].join(', ')}); name the token after the agent that holds it`,
      );
    if (t.agent.includes('/'))
      throw new TollgateFault(
        'config_invalid',
        `tokens[${i}].agent may not contain "/" (it separates agent namespaces)`,
      );
  }
  checkGrants(tokens);
}
