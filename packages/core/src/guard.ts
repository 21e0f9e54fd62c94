// guard(dispatch): the whole loop around any async tool dispatcher — check, dispatch only on
// pass/dispatch, record the result or error, re-read probe-able claim subjects, store the outcome.
// dispatchChecked is the same loop after a check made elsewhere (a framework's own guardrail hook).
import type { Call, ClaimResult, Source, Verdict } from '@tollgate/contracts';
import type { ObservedOutput } from './claims.js';
import type { CheckOptions, Gate } from './gate.js';

export interface GuardOptions {
  /** Re-reads a claim subject after dispatch (run a read command, call a read-only tool). */
  observe?: (subject: Source) => Promise<ObservedOutput | undefined>;
  /** Summarises a result for the audit row (default: first 200 characters of its JSON). */
  summarise?: (result: unknown) => string;
  /**
   * The text of a result as the gate records it (an observation of kind `result`, so preconditions
   * can read a tool's verdict; default: the string itself, else its JSON).
   */
  resultText?: (result: unknown) => string;
  /** How the check is asked: the channel rails are phrased for, the tool's hints, the cwd. */
  check?: Pick<CheckOptions, 'channel' | 'hints' | 'cwd'>;
}

export interface GuardResult<R> {
  verdict: Verdict;
  dispatched: boolean;
  result?: R;
  error?: unknown;
  claims?: ClaimResult[];
}

export type Guarded<R> = (call: Call, envelope?: unknown) => Promise<GuardResult<R>>;

export function guardWith<R>(
  gate: Gate,
  dispatch: (call: Call) => Promise<R>,
  options: GuardOptions = {},
): Guarded<R> {
  return async (call, envelope) => {
    const verdict = await gate.check(call, {
      ...options.check,
      ...(envelope === undefined ? {} : { envelope }),
    });
    return dispatchChecked(gate, call, verdict, dispatch, options);
  };
}

/** Runs a call its verdict lets through, records what it returned and settles its outcome. */
export async function dispatchChecked<R>(
  gate: Gate,
  call: Call,
  verdict: Verdict,
  dispatch: (call: Call) => Promise<R>,
  options: GuardOptions = {},
): Promise<GuardResult<R>> {
  const summarise = options.summarise ?? defaultSummary;
  if (verdict.outcome !== 'pass' && verdict.outcome !== 'dispatch') return { verdict, dispatched: false };
  const tracked = verdict.outcome === 'dispatch' && verdict.audit_id !== undefined;
  let result: R;
  try {
    result = await dispatch(call);
  } catch (error) {
    if (tracked && verdict.audit_id) {
      await gate.recordOutcome(verdict.audit_id, {
        status: 'error',
        summary: defaultSummary(error instanceof Error ? error.message : error),
      });
    }
    return { verdict, dispatched: true, error };
  }
  await recordResult(gate, call, verdict, result, options.resultText);
  if (!tracked || !verdict.audit_id) return { verdict, dispatched: true, result };
  const { claims } = await gate.settle(verdict.audit_id, call.session, {
    status: 'ok',
    summary: summarise(result),
    ...(options.observe !== undefined ? { observe: options.observe } : {}),
  });
  return { verdict, dispatched: true, result, claims };
}

/**
 * What the dispatched call returned, recorded against it: a read's output is an observation the agent
 * can cite (as the MCP proxy records it); any other call's is a result, for preconditions only.
 */
async function recordResult(
  gate: Gate,
  call: Call,
  verdict: Verdict,
  result: unknown,
  text: ((result: unknown) => string) | undefined,
): Promise<void> {
  let output: string;
  try {
    output = text ? text(result) : typeof result === 'string' ? result : (JSON.stringify(result) ?? '');
  } catch {
    return; // a result that cannot be shown as text is not recorded; the dispatch stands
  }
  await gate.recordObservation({
    session: call.session,
    ...(call.agent !== undefined ? { agent: call.agent } : {}),
    source:
      call.tool === 'shell' && typeof call.args.command === 'string'
        ? call.args.command
        : { tool: call.tool, args: call.args },
    output,
    recordedBy: 'guard',
    attested: true,
    ...(verdict.class === 'read-only' ? {} : { kind: 'result' as const }),
  });
}

function defaultSummary(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
