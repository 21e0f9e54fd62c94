// The directive an MCP client sends with a call: `_meta["tollgate/directive"]`, a string or
// `{text, source?}`. Recorded in the session's ledger (never evidence) and carried on the call, so
// the audit row shows it with its latency and a quote found only in it is directive_is_not_evidence.
import type { CallToolRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Directive } from '@tollgate/contracts';
import { type Gate, recordDirective } from '@tollgate/core';

export const DIRECTIVE_META_KEY = 'tollgate/directive';
const MAX_TEXT = 65_536;

/** The directive text and source a call's _meta carries, if it carries a usable one. */
export function directiveOfMeta(
  meta: CallToolRequest['params']['_meta'],
): { text: string; source?: string } | undefined {
  const value = (meta as Record<string, unknown> | undefined)?.[DIRECTIVE_META_KEY];
  if (typeof value === 'string') return value === '' ? undefined : { text: value.slice(0, MAX_TEXT) };
  if (value === null || typeof value !== 'object') return undefined;
  const { text, source } = value as { text?: unknown; source?: unknown };
  if (typeof text !== 'string' || text === '') return undefined;
  return {
    text: text.slice(0, MAX_TEXT),
    ...(typeof source === 'string' && source !== '' ? { source: source.slice(0, 256) } : {}),
  };
}

/** Records the call's directive for its session and returns it as the call carries it. */
export async function recordMetaDirective(
  gate: Pick<Gate, 'recordObservation'>,
  meta: CallToolRequest['params']['_meta'],
  session: string,
  agent: string | undefined,
): Promise<Directive | undefined> {
  const told = directiveOfMeta(meta);
  if (told === undefined) return undefined;
  const recorded = await recordDirective(gate, {
    session,
    ...(agent !== undefined ? { agent } : {}),
    kind: 'mcp',
    text: told.text,
    recordedBy: 'mcp-proxy',
    attested: true,
  });
  return { text: told.text, source: told.source ?? 'mcp', at: recorded.observed_at };
}
