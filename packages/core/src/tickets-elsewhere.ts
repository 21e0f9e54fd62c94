// When a call arrives without a ticket, a prediction or decline may be open in the same session for
// a *different* call (other words, another target): the agent meant it for this one. The rails say
// so and show both, instead of a bare "prediction missing". Two indexed lookups, no audit listing:
// this runs on every first refusal in the hook.
import type { AuditRow, Call } from '@tollgate/contracts';
import { canonicalJson } from './canonical.js';
import type { Store } from './ports.js';
import { quoted } from './sanitise.js';

/** How many of the session's open tickets are looked at (each costs one indexed lookup for its call). */
const TICKETS = 8;

export interface TicketElsewhere {
  kind: 'prediction' | 'decline';
  id: string;
  /** The call it was filed for, as one line, when this session's audit names it. */
  call?: string;
}

/**
 * Open tickets of this session bound to other calls. A ticket keeps only the digest of its call;
 * the call itself is named by the newest decision row of the session with that digest, if any.
 */
export async function ticketsElsewhere(
  store: Store,
  session: string,
  digest: string,
): Promise<TicketElsewhere[]> {
  const open = (await store.openTickets(session, TICKETS)).filter((t) => t.call_digest !== digest);
  return Promise.all(
    open.map(async (ticket) => {
      const [row] = await store.recentDecisions(session, ticket.call_digest, 1);
      return { kind: ticket.kind, id: ticket.id, ...(row ? { call: callLine(row) } : {}) };
    }),
  );
}

/** The sentence for the refusal: what is open, for which call, and what this call is. */
export function elsewhereText(call: Pick<Call, 'tool' | 'args'>, found: readonly TicketElsewhere[]): string {
  const first = found[0];
  if (!first) return '';
  const more = found.length > 1 ? ` (and ${found.length - 1} more for other calls)` : '';
  const other =
    first.call !== undefined
      ? quoted(first.call, 100)
      : 'one not tried in this session (see what you filed it for)';
  return ` A ${first.kind} (${first.id}) is open in this session for a different call: ${other}${more}; this call is ${quoted(callText(call), 100)}. A ticket binds to the call it was filed for (its words, not their quoting): file one for this call.`;
}

function callLine(row: AuditRow): string {
  const call = row.call as { tool?: string; args?: Record<string, unknown> } | undefined;
  if (!call || typeof call.tool !== 'string') return row.tool ?? '(unknown call)';
  return callText({ tool: call.tool, args: call.args ?? {} });
}

function callText(call: Pick<Call, 'tool' | 'args'>): string {
  if (call.tool === 'shell' && typeof call.args.command === 'string') return call.args.command;
  return `${call.tool} ${canonicalJson(call.args)}`;
}
