// A verdict as text for a terminal: one line for pass/dispatch/declined, the rails for a rejection.
import type { Verdict } from '@tollgate/contracts';
import { sanitiseText } from '@tollgate/core';
import type { CommandIO } from '../command.js';

export function printVerdict(io: CommandIO, v: Verdict, command: string): void {
  const what = sanitiseText(command, 120);
  const audit = v.audit_id ? ` (audit ${v.audit_id})` : '';
  switch (v.outcome) {
    case 'pass':
      io.stdout.write(
        v.would_reject
          ? `pass (observe mode; enforce mode would reject: ${v.reasons.map((r) => r.code).join(', ')})${audit}\n`
          : `pass: ${v.class}${audit}\n`,
      );
      return;
    case 'dispatch':
      io.stdout.write(
        `dispatch: ${v.override ? `operator override ${v.override}` : `prediction ${v.prediction_id ?? '?'}`} covers ${what}${audit}\n`,
      );
      return;
    case 'declined':
      io.stdout.write(`declined: decline ${v.decline_id ?? '?'} is on record; nothing runs${audit}\n`);
      return;
    case 'rejected':
      io.stderr.write(
        `rejected${audit}\n${v.rails?.text ?? v.reasons.map((r) => `  - [${r.code}] ${r.message}`).join('\n')}\n`,
      );
      return;
  }
}
