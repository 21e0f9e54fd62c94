// tollgate audit export: every matching row, streamed from Store.exportAudit a page at a time and
// written with backpressure, so memory stays flat whatever the size of the audit. JSON lines are the
// stored documents as they are (the bytes the chain covers); CSV flattens the fields people filter on.
// On a terminal, stderr shows how far it got.
import type { AuditRow } from '@tollgate/contracts';
import type { ExportQuery, Store } from '@tollgate/core';
import type { CommandIO } from '../command.js';
import { csvLine } from './audit-report-text.js';

export type ExportFormat = 'jsonl' | 'csv';

const CSV_HEAD = [
  'seq',
  'id',
  'at',
  'kind',
  'session',
  'agent',
  'tool',
  'action',
  'class',
  'outcome',
  'mode',
  'dry_run',
  'rules',
  'reasons',
  'escalation',
  'override_id',
  'prediction_id',
  'evidence',
  'directive_latency_ms',
  'ref',
  'result',
  'claims_matched',
  'claims_mismatched',
  'claims_unverifiable',
  'call_digest',
  'hash',
];

function csvRow(row: AuditRow): string {
  const claims = row.claims ?? [];
  const count = (r: string) => (row.kind === 'outcome' ? claims.filter((c) => c.result === r).length : null);
  return csvLine([
    row.seq,
    row.id,
    row.at,
    row.kind,
    row.session,
    row.agent,
    row.tool,
    row.action,
    row.class,
    row.outcome,
    row.mode,
    row.dry_run,
    row.rules?.join(' '),
    row.reasons?.join(' '),
    row.escalation,
    row.override_id,
    row.prediction_id,
    row.evidence?.length,
    row.directive_latency_ms,
    row.ref,
    row.result?.status,
    count('matched'),
    count('mismatched'),
    count('unverifiable'),
    row.call_digest,
    row.hash,
  ]);
}

export async function exportAudit(
  store: Pick<Store, 'exportAudit'>,
  query: ExportQuery,
  format: ExportFormat,
  io: CommandIO,
): Promise<number> {
  const progress = (io.stderr as { isTTY?: boolean }).isTTY === true ? new Progress(io) : undefined;
  if (format === 'csv') await write(io, csvLine(CSV_HEAD));
  let rows = 0;
  for await (const page of store.exportAudit(query)) {
    const text =
      format === 'jsonl'
        ? `${page.join('\n')}\n`
        : page.map((doc) => csvRow(JSON.parse(doc) as AuditRow)).join('');
    await write(io, text);
    rows += page.length;
    progress?.show(rows);
  }
  progress?.done(rows);
  return rows;
}

/** Waits for the stream to drain when its buffer is full: the producer never runs ahead of the pipe. */
function write(io: CommandIO, text: string): Promise<void> {
  if (io.stdout.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      io.stdout.off('error', fail);
      resolve();
    };
    const fail = (error: Error) => {
      io.stdout.off('drain', done);
      reject(error);
    };
    io.stdout.once('drain', done);
    io.stdout.once('error', fail);
  });
}

class Progress {
  readonly #io: CommandIO;
  readonly #start = Date.now();
  #last = 0;
  constructor(io: CommandIO) {
    this.#io = io;
  }
  show(rows: number): void {
    const now = Date.now();
    if (now - this.#last < 200) return;
    this.#last = now;
    this.#io.stderr.write(`\rexported ${rows} rows (${this.#rate(rows, now)} rows/s)`);
  }
  done(rows: number): void {
    this.#io.stderr.write(`\rexported ${rows} rows (${this.#rate(rows, Date.now())} rows/s)\n`);
  }
  #rate(rows: number, now: number): number {
    return Math.round(rows / Math.max(0.001, (now - this.#start) / 1000));
  }
}
