// What every gated tool of one agent shares: the gate, how a run context names its session, the
// agent's name, tool hints, and the checks a guardrail made, waiting for their tool to run.

import { createHash } from 'node:crypto';
import type { RunContext } from '@openai/agents-core';
import type { Call, Verdict } from '@tollgate/contracts';
import { canonicalJson, type Gate, type GuardOptions, type ToolHints } from '@tollgate/core';

export interface GateAgentToolsOptions {
  gate: Gate;
  /** The session the calls belong to (reads count as evidence only within it), or how a run names it. */
  session: string | ((context: RunContext<unknown>) => string);
  agent?: string;
  /** Hints for tools no rule names (give createGate the same function as toolHints). */
  hints?: (tool: string) => ToolHints | undefined;
  summarise?: GuardOptions['summarise'];
  resultText?: GuardOptions['resultText'];
}

/** A check the input guardrail made, for the tool call it belongs to. */
export interface PendingCheck {
  call: Call;
  verdict: Verdict;
}

// Checks whose tool never ran (an approval refused, a run cancelled) are dropped oldest first.
const MAX_PENDING = 1024;

/**
 * The checks a guardrail made, each held for the one call it checked: the same call id, tool name,
 * session and arguments (by digest). A call with no call id is never held, so its tool checks again.
 */
export class PendingChecks {
  private readonly byCall = new Map<string, PendingCheck>();

  put(callId: string | undefined, check: PendingCheck): void {
    const key = keyOf(callId, check.call);
    if (key === undefined) return;
    this.byCall.delete(key);
    this.byCall.set(key, check);
    if (this.byCall.size > MAX_PENDING) {
      const oldest = this.byCall.keys().next().value;
      if (oldest !== undefined) this.byCall.delete(oldest);
    }
  }

  peek(callId: string | undefined, call: Call): PendingCheck | undefined {
    const key = keyOf(callId, call);
    return key === undefined ? undefined : this.byCall.get(key);
  }

  take(callId: string | undefined, call: Call): PendingCheck | undefined {
    const key = keyOf(callId, call);
    if (key === undefined) return undefined;
    const check = this.byCall.get(key);
    this.byCall.delete(key);
    return check;
  }
}

function keyOf(callId: string | undefined, call: Call): string | undefined {
  if (typeof callId !== 'string' || callId === '') return undefined;
  const digest = createHash('sha256').update(canonicalJson(call.args)).digest('hex');
  return JSON.stringify([callId, call.tool, call.session, digest]);
}

export function sessionOf(options: GateAgentToolsOptions, context: RunContext<unknown>): string {
  return typeof options.session === 'string' ? options.session : options.session(context);
}
