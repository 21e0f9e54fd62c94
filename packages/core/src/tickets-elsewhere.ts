// When a call arrives without a ticket, a prediction or decline may be open in the same session for
// a *different* call (other words, another target): the agent meant it for this one. The rails say
// so and show both, instead of a bare "prediction missing".
import type { AuditRow, Call } from '@tollgate/contracts';
import { canonicalJson } from './canonical.js';
import type { Store } from './ports.js';
import { quoted } from './sanitise.js';

/** How many of the session's newest decision rows are searched for the calls tickets were filed for. */
const ROWS = 200;
/** How many distinct other calls are asked about (each costs two indexed lookups). */
const CALLS = 8;

export interface TicketElsewhere {
  kind: 'prediction' | 'decline';
  id: string;
  /** The call it was filed for, as one line. */
  call: string;
}

/**
 * Open tickets of this session bound to other calls the gate has seen in it (tickets are found by
 * the calls of the session's decision rows: a ticket binds to a digest, and the rows name the call).
 */
export async function ticketsElsewhere(
  store: Store,
  session: string,
  digest: string,
): Promise<TicketElsewhere[]> {
  const rows = await store.listAudit({ session, kind: 'decision', limit: ROWS });
  const calls = new Map<string, AuditRow>();
  for (const row of rows.reverse()) {
    if (row.call_digest === undefined || row.call_digest === digest || calls.has(row.call_digest)) continue;
    calls.set(row.call_digest, row);
    if (calls.size >= CALLS) break;
  }
  const found: TicketElsewhere[] = [];
  for (const [other, row] of calls) {
    const [prediction, decline] = await Promise.all([
      store.findOpenPrediction(session, other),
      store.findOpenDecline(session, other),
    ]);
    const ticket = prediction ?? decline;
    if (ticket)
      found.push({ kind: prediction ? 'prediction' : 'decline', id: ticket.id, call: callLine(row) });
  }
  return found;
}

/** The sentence for the refusal: what is open, for which call, and what this call is. */
export function elsewhereText(call: Pick<Call, 'tool' | 'args'>, found: readonly TicketElsewhere[]): string {
  const first = found[0];
  if (!first) return '';
  const more = found.length > 1 ? ` (and ${found.length - 1} more for other calls)` : '';
  return ` A ${first.kind} (${first.id}) is open in this session for a different call: ${quoted(first.call, 100)}${more}; this call is ${quoted(callText(call), 100)}. A ticket binds to the call it was filed for (its words, not their quoting): file one for this call.`;
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
