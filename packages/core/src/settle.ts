// Settling a dispatched call: re-read each claim subject the gate may re-read (through the
// adapter's own means: a shell, an MCP upstream, a tool map), record those reads as attested
// observations, and store the outcome with predicted vs observed. Every adapter ends a dispatch here.
import type { Source } from '@tollgate/contracts';
import type { ObservedOutput } from './claims.js';
import { isFault } from './faults.js';
import type { Gate } from './gate.js';
import type { OutcomeResult } from './outcome.js';

export interface Settlement {
  status: 'ok' | 'error' | 'timeout' | 'unknown';
  exit_code?: number;
  summary?: string;
  /** Re-reads a claim subject; undefined when this adapter cannot read that kind of subject. */
  observe?: (subject: Source) => Promise<ObservedOutput | undefined>;
  /** Told when a re-read fails; that claim stays unverifiable. */
  onProbeError?: (subject: Source, error: unknown) => void;
  /** Recorded on the probe observations (default: none). */
  agent?: string;
}

export async function settleDispatch(
  gate: Gate,
  session: string,
  auditId: string,
  s: Settlement,
): Promise<OutcomeResult> {
  const observed = [];
  // A call that failed changed nothing we can predict about: its claims stay unverifiable.
  if (s.status === 'ok' && s.observe) {
    for (const subject of await gate.probesFor(auditId)) {
      let seen: ObservedOutput | undefined;
      try {
        seen = await s.observe(subject);
      } catch (error) {
        s.onProbeError?.(subject, error);
        continue;
      }
      if (!seen) continue;
      const exit = seen.exit_code !== undefined ? { exit_code: seen.exit_code } : {};
      try {
        await gate.recordObservation({
          session,
          source: subject,
          output: seen.output,
          recordedBy: 'probe',
          attested: true,
          ...(s.agent !== undefined ? { agent: s.agent } : {}),
          ...exit,
        });
      } catch (error) {
        // A full ledger loses the probe's read, not the outcome: the claim is still judged on it.
        if (!(isFault(error) && error.code === 'limit_exceeded')) throw error;
      }
      observed.push({ subject, output: seen.output, ...exit });
    }
  }
  return gate.recordOutcome(auditId, {
    status: s.status,
    ...(s.exit_code !== undefined ? { exit_code: s.exit_code } : {}),
    ...(s.summary !== undefined && s.summary !== '' ? { summary: s.summary } : {}),
    observed,
  });
}
