// What every gated tool of one agent shares: the gate, how a run context names its session, the
// agent's name, tool hints, and the checks a guardrail made, waiting for their tool to run.

import type { RunContext } from '@openai/agents-core';
import type { Call, Verdict } from '@tollgate/contracts';
import type { Gate, GuardOptions, ToolHints } from '@tollgate/core';

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

export class PendingChecks {
  private readonly byCallId = new Map<string, PendingCheck>();

  put(callId: string, check: PendingCheck): void {
    this.byCallId.delete(callId);
    this.byCallId.set(callId, check);
    if (this.byCallId.size > MAX_PENDING) {
      const oldest = this.byCallId.keys().next().value;
      if (oldest !== undefined) this.byCallId.delete(oldest);
    }
  }

  peek(callId: string): PendingCheck | undefined {
    return this.byCallId.get(callId);
  }

  take(callId: string): PendingCheck | undefined {
    const check = this.byCallId.get(callId);
    this.byCallId.delete(callId);
    return check;
  }
}

export function sessionOf(options: GateAgentToolsOptions, context: RunContext<unknown>): string {
  return typeof options.session === 'string' ? options.session : options.session(context);
}
