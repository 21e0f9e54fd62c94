// Audit rows and views as text for a terminal (the --json forms print the documents; the report's
// tables are audit-report-text.ts).
import type { AuditRow } from '@tollgate/contracts';
import { type AuditView, sanitiseText } from '@tollgate/core';
import type { CommandIO } from '../command.js';

export function printRow(io: CommandIO, row: AuditRow): void {
  const what =
    row.kind === 'decision'
      ? `${row.outcome ?? '?'}${row.dry_run ? ' (dry)' : ''} ${row.class ?? ''} ${commandOf(row)}${row.rules?.length ? ` [${row.rules.join(', ')}]` : ''}`
      : row.kind === 'outcome'
        ? `outcome of ${row.ref ?? '?'}: ${row.result?.status ?? '?'}${claimCounts(row)}`
        : `override ${row.override?.id ?? ''} by ${row.override?.operator ?? '?'}: ${row.override?.reason ?? ''}`;
  io.stdout.write(
    `${row.seq}\t${row.id}\t${row.at}\t${row.session}\t${row.kind}\t${sanitiseText(what, 300)}\n`,
  );
}

function commandOf(row: AuditRow): string {
  const command = (row.call as { args?: { command?: unknown } } | undefined)?.args?.command;
  return typeof command === 'string' ? JSON.stringify(sanitiseText(command, 120)) : (row.tool ?? '');
}

function claimCounts(row: AuditRow): string {
  if (!row.claims?.length) return '';
  return ` (${row.claims.map((c) => c.result).join(', ')})`;
}

export function printView(io: CommandIO, view: AuditView): void {
  const lines = [
    `${view.kind} ${view.id} at ${view.at} (seq ${view.seq}), session ${view.session}${view.agent ? `, agent ${view.agent}` : ''}`,
    view.kind === 'decision'
      ? `  ${view.outcome}${view.dry_run ? ' (dry look)' : ''}: ${view.class} ${commandOf(view)} [${(view.rules ?? []).join(', ')}]`
      : '',
    view.segment ? `  gated segment: ${sanitiseText(view.segment, 200)}` : '',
    view.reasons?.length ? `  reasons: ${view.reasons.join(', ')}` : '',
    view.prediction_id
      ? `  prediction ${view.prediction_id}${view.prediction?.rationale ? `: ${sanitiseText(view.prediction.rationale, 200)}` : ''}`
      : '',
    ...(view.evidence ?? []).map((e) => `  evidence ${e.observation} (${e.age_s} s old)`),
    view.result
      ? `  result: ${view.result.status}${view.result.exit_code !== undefined ? ` (exit ${view.result.exit_code})` : ''}`
      : '',
    ...(view.claims ?? []).map((c) => {
      const subject = typeof c.claim.subject === 'string' ? c.claim.subject : c.claim.subject.tool;
      const value = 'value' in c.claim ? ` ${JSON.stringify(c.claim.value)}` : '';
      const seen =
        c.observed !== undefined ? ` — observed ${JSON.stringify(sanitiseText(c.observed, 120))}` : '';
      return `  claim ${c.result}: ${sanitiseText(subject, 120)} ${c.claim.op}${value}${seen}`;
    }),
  ];
  io.stdout.write(`${lines.filter((l) => l !== '').join('\n')}\n`);
}
