// What a gated tool returns when the gate does not let the call run: a plain result the model reads
// (never a thrown error, which an application may not show it), with the facts beside the text.
import type { Verdict } from '@tollgate/contracts';
import { declineText, refusalText, replyFacts, sanitiseOutgoing } from '@tollgate/core';

export interface TollgateReply {
  tollgate: { outcome: 'rejected' | 'declined' | 'invalid' } & Record<string, unknown>;
  /** What the model reads: the rails, the recorded decline, or what is wrong with the envelope. */
  text: string;
}

export function verdictReply(verdict: Verdict, tool: string): TollgateReply {
  const facts = replyFacts(verdict) as TollgateReply['tollgate'];
  return {
    tollgate: facts,
    text: verdict.outcome === 'declined' ? declineText(verdict, tool) : refusalText(verdict),
  };
}

export function invalidReply(message: string): TollgateReply {
  return { tollgate: { outcome: 'invalid' }, text: sanitiseOutgoing(`Tollgate: ${message}`) };
}

const OUTCOMES = new Set(['rejected', 'declined', 'invalid']);

export function isTollgateReply(output: unknown): output is TollgateReply {
  if (output === null || typeof output !== 'object') return false;
  const { tollgate, text } = output as Partial<TollgateReply>;
  return typeof text === 'string' && typeof tollgate?.outcome === 'string' && OUTCOMES.has(tollgate.outcome);
}
