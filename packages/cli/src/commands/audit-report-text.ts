// The calibration report as a terminal reads it (aligned tables) and as a spreadsheet reads it (CSV).
// Every value that came from an agent (subjects, observed output, session and agent names) passes
// sanitiseText, and CSV cells that a spreadsheet would run as a formula are quoted as text.
import { type CalibrationReport, type ReportFigures, sanitiseText } from '@tollgate/core';

const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | null) => (x === null ? '-' : String(x));
const clean = (text: string, max = 60) => sanitiseText(text, max);

/** Columns padded to their widest cell; numbers right-aligned. */
export function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.%]*$/.test(r[i] ?? '')));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/**
 * The figures of one group, once: the CSV column (every figure, in this order), the terminal column
 * when the table shows it, the value, and whether the terminal writes it as a share (a percentage).
 */
const FIGURES: readonly {
  csv: string;
  head?: string;
  share?: true;
  of: (f: ReportFigures) => number | null;
}[] = [
  { csv: 'decisions', head: 'decisions', of: (f) => f.decisions },
  { csv: 'pass', head: 'pass', of: (f) => f.by_outcome.pass },
  { csv: 'dispatch', head: 'dispatch', of: (f) => f.by_outcome.dispatch },
  { csv: 'declined', head: 'declined', of: (f) => f.by_outcome.declined },
  { csv: 'rejected', head: 'rejected', of: (f) => f.by_outcome.rejected },
  { csv: 'dry_runs', of: (f) => f.dry_runs },
  { csv: 'would_reject', of: (f) => f.would_reject },
  { csv: 'escalations', of: (f) => f.escalations },
  { csv: 'overrides', of: (f) => f.overrides },
  { csv: 'decline_rate', head: 'decline', share: true, of: (f) => f.rates.decline },
  { csv: 'rejection_rate', head: 'reject', share: true, of: (f) => f.rates.rejection },
  { csv: 'override_rate', head: 'override', share: true, of: (f) => f.rates.override },
  { csv: 'escalation_rate', head: 'escalate', share: true, of: (f) => f.rates.escalation },
  { csv: 'matched', head: 'matched', of: (f) => f.claims.matched },
  { csv: 'mismatched', head: 'mismatch', of: (f) => f.claims.mismatched },
  { csv: 'unverifiable', head: 'unverif', of: (f) => f.claims.unverifiable },
  { csv: 'accuracy', head: 'accuracy', share: true, of: (f) => f.accuracy },
  { csv: 'predictions', of: (f) => f.predictions.observed },
  { csv: 'all_matched_share', head: 'all-ok', share: true, of: (f) => f.predictions.all_matched },
  { csv: 'unverifiable_share', share: true, of: (f) => f.predictions.unverifiable },
  { csv: 'brier', head: 'brier', of: (f) => f.brier.score },
  { csv: 'brier_claims', of: (f) => f.brier.claims },
];

const SHOWN = FIGURES.filter((c) => c.head !== undefined);
const FIGURE_HEAD = SHOWN.map((c) => c.head as string);

function figureCells(f: ReportFigures): string[] {
  return SHOWN.map((c) => (c.share ? pct(c.of(f)) : num(c.of(f))));
}

export function reportText(r: CalibrationReport, by: string | undefined): string {
  const out: string[] = [];
  const window = `${r.window.since ?? 'the beginning'} → ${r.window.until ?? 'now'}`;
  out.push(
    `calibration over ${r.rows} row${r.rows === 1 ? '' : 's'}, ${window} (generated ${r.generated_at})`,
  );
  const section = (title: string, lines: string[]) => out.push('', title, ...lines);

  const views: [string, [string, ReportFigures][]][] =
    by === undefined
      ? [
          ['agent', Object.entries(r.by_agent)],
          ['rule', Object.entries(r.by_rule)],
        ]
      : [[by, (r.groups ?? []).map((g) => [g.key, g])]];
  for (const [name, entries] of views)
    section(
      `by ${name}`,
      table(
        [name, ...FIGURE_HEAD],
        [['(all)', ...figureCells(r.totals)], ...entries.map(([k, f]) => [clean(k), ...figureCells(f)])],
      ),
    );
  if (by !== 'day')
    section(
      'per day (UTC)',
      table(
        ['day', ...FIGURE_HEAD],
        r.series.map((d) => [d.key, ...figureCells(d)]),
      ),
    );

  section(
    'rules',
    table(
      [
        'rule',
        'fires',
        'last fired',
        'refusals',
        '→predict',
        '→decline',
        '→override',
        '→again',
        '→nothing',
        'accuracy',
      ],
      r.rules.map((x) => [
        clean(x.rule),
        String(x.fires),
        x.last_fired?.slice(0, 19) ?? '-',
        String(x.refusals),
        String(x.ended.prediction),
        String(x.ended.decline),
        String(x.ended.override),
        String(x.ended.again),
        String(x.ended.nothing),
        pct(x.accuracy),
      ]),
    ),
  );
  if (r.never_fired.length > 0)
    out.push(`never fired in this window: ${r.never_fired.map((x) => clean(x)).join(', ')}`);

  const l = r.latency;
  section(
    'latency',
    table(
      ['measure', 'n', 'median', 'p90'],
      [
        ['evidence age (s)', l.evidence_age_s],
        ['refusal → prediction (s)', l.rejection_to_prediction_s],
        ['directive → action (ms)', l.directive_to_action_ms],
      ].map(([name, s]) => {
        const spread = s as typeof l.evidence_age_s;
        return [name as string, String(spread.n), num(spread.median), num(spread.p90)];
      }),
    ),
  );
  if (r.top_reasons.length > 0)
    out.push(`top reasons: ${r.top_reasons.map((x) => `${x.code} ×${x.count}`).join(', ')}`);

  section(
    `mismatches (newest ${r.mismatches.length})`,
    r.mismatches.length === 0
      ? ['none']
      : table(
          ['at', 'agent', 'rules', 'subject', 'op', 'predicted', 'observed', 'decision'],
          r.mismatches.map((m) => [
            m.at.slice(0, 19),
            clean(m.agent ?? '-', 24),
            clean(m.rules.join(','), 40),
            clean(typeof m.subject === 'string' ? m.subject : JSON.stringify(m.subject), 48),
            m.op,
            clean(JSON.stringify(m.predicted), 32),
            clean(m.observed ?? '-', 48),
            m.audit_id,
          ]),
        ),
  );

  const f = r.flags;
  section(
    'flags',
    table(
      ['flag', 'count', 'newest'],
      [
        ['perfunctory prediction', f.perfunctory],
        ['declined while queryable', f.declined_while_queryable],
        ['repeated after a decline', f.repeated],
      ].map(([name, flag]) => {
        const x = flag as typeof f.perfunctory;
        return [
          name as string,
          String(x.count),
          x.rows
            .slice(0, 3)
            .map((row) => row.audit_id)
            .join(' '),
        ];
      }),
    ),
  );
  return `${out.join('\n')}\n`;
}

/** One CSV line; a cell starting like a formula (= + - @, tab, CR) is kept as text with a leading quote. */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells
    .map((c) => {
      if (c === null || c === undefined) return '';
      let s =
        typeof c === 'string'
          ? c
          : typeof c === 'number' || typeof c === 'boolean'
            ? String(c)
            : JSON.stringify(c);
      if (typeof c === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
      return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
    })
    .join(',')}\n`;
}

function csvFigures(f: ReportFigures): unknown[] {
  return FIGURES.map((c) => c.of(f));
}

/** The figures as CSV: one line per group of every view (all, agent, rule, day, and --by). */
export function reportCsv(r: CalibrationReport, by: string | undefined): string {
  const lines = [
    csvLine(['view', 'key', ...FIGURES.map((c) => c.csv)]),
    csvLine(['all', '', ...csvFigures(r.totals)]),
  ];
  for (const [k, f] of Object.entries(r.by_agent)) lines.push(csvLine(['agent', k, ...csvFigures(f)]));
  for (const [k, f] of Object.entries(r.by_rule)) lines.push(csvLine(['rule', k, ...csvFigures(f)]));
  for (const d of r.series) lines.push(csvLine(['day', d.key, ...csvFigures(d)]));
  if (by !== undefined && by !== 'agent' && by !== 'rule' && by !== 'day')
    for (const g of r.groups ?? []) lines.push(csvLine([by, g.key, ...csvFigures(g)]));
  return lines.join('');
}
