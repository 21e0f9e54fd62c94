// After the gate let a command through (`tollgate run`, a shim): record the outcome, re-read the
// claim subjects the gate may probe, and tell the person what was compared; and say so when an
// operator override, not a prediction, let the call through.
import type { ClaimResult, Verdict } from '@tollgate/contracts';
import { sanitiseText } from '@tollgate/core';
import { shellProbe } from '@tollgate/hooks';
import type { CommandIO } from './command.js';
import type { ExecResult } from './exec.js';
import type { Runtime } from './runtime.js';

/** Whether the decision has an outcome to record: a dispatch, or an observe-mode would-reject. */
export function tracked(v: Verdict): v is Verdict & { audit_id: string } {
  return v.audit_id !== undefined && (v.outcome === 'dispatch' || v.would_reject);
}

export async function completeDispatch(
  runtime: Runtime,
  verdict: Verdict & { audit_id: string },
  result: ExecResult,
  session: string,
  io: CommandIO,
): Promise<ClaimResult[]> {
  const { claims } = await runtime.gate.settle(verdict.audit_id, session, {
    status: result.code === 0 ? 'ok' : 'error',
    exit_code: result.code,
    summary: (
      result.spawnError ??
      (result.stderr.trim() || result.stdout.trim() || `exit ${result.code}`)
    ).slice(-200),
    observe: (subject) => shellProbe(subject, io.cwd),
  });
  return claims;
}

export function printClaims(io: CommandIO, verdict: Verdict, claims: ClaimResult[]): void {
  const lines = claims.map((c) => {
    const subject = typeof c.claim.subject === 'string' ? c.claim.subject : c.claim.subject.tool;
    const value = 'value' in c.claim ? ` ${JSON.stringify(c.claim.value)}` : '';
    return `  ${c.result.padEnd(12)} ${subject} ${c.claim.op}${value}`;
  });
  const none =
    verdict.prediction_id === undefined ? '  (no prediction was filed: nothing to compare)' : '  (no claims)';
  io.stderr.write(
    `tollgate: outcome recorded for ${verdict.audit_id}; predicted vs observed:\n${lines.join('\n') || none}\n`,
  );
}

/** An override that applies says so: who let the call through, why, until when, and what it used. */
export function printOverride(io: CommandIO, verdict: Verdict): void {
  const applied = verdict.reasons.find((r) => r.code === 'override_applied');
  const used =
    verdict.prediction_id !== undefined
      ? `; the prediction ${verdict.prediction_id} filed for it is recorded and its claims are probed`
      : '; no prediction was filed for it';
  io.stderr.write(
    `tollgate: override ${verdict.override} applies: ${sanitiseText(applied?.message ?? 'an operator let this call through', 400)}${used}\n`,
  );
}
