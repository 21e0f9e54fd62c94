// tollgate audit list|show|report|verify|export|replay|anchor: reading the hash-chained audit trail,
// anchoring its head outside the store (anchor-log.ts, anchor-check.ts), and the calibration loop
// (report, export, replay). The views (show, report, replay) come from core so the HTTP service
// returns the very same documents.
import {
  auditView,
  buildReport,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type ReportQuery,
} from '@tollgate/core';
import { flag, intOption, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openRuntime } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';
import { anchor, verifyAgainst } from './audit-anchor.js';
import { type ExportFormat, exportAudit } from './audit-export.js';
import { replay, replayPolicy, replayText } from './audit-replay.js';
import { reportCsv, reportText } from './audit-report-text.js';
import { printRow, printView } from './audit-text.js';

const SUBCOMMANDS = ['list', 'show', 'report', 'verify', 'export', 'replay', 'anchor'];

export const command = defineCommand(
  {
    name: 'audit',
    summary: 'list, show, report, verify, export and replay the audit trail',
    subcommands: SUBCOMMANDS,
    options: {
      limit: 'string',
      session: 'string',
      since: 'string',
      until: 'string',
      agent: 'string',
      rule: 'string',
      tool: 'string',
      by: 'string',
      csv: 'boolean',
      format: 'string',
      policy: 'string',
      against: 'string',
      file: 'string',
      'git-ref': 'string',
      operator: 'string',
    },
    usage: `
Usage: tollgate audit list [--json] [--limit N] [--session S] [--agent A] [--since TIME]
       tollgate audit show ID [--json]
       tollgate audit report [--json|--csv] [--by D] [--since TIME] [--until TIME] [--session S] [--agent A] [--rule R] [--tool T] [--limit N]
       tollgate audit verify [--json] [--against F|git:REF]
       tollgate audit export [--format jsonl|csv] [--since TIME] [--until TIME] [--session S] [--agent A]
       tollgate audit replay --policy FILE [--json] [--since TIME] [--until TIME] [--limit N]
       tollgate audit anchor [--json] [--file F | --git-ref REF] [--operator NAME]

  list     rows oldest first (--limit keeps the newest N); --json prints a JSON array
  show     one decision merged with its outcome rows and predicted-vs-observed claim results
  report   calibration, aggregated in the database over a window: outcome mix and decline,
           rejection, override and escalation rates per agent, per rule and per day (--by agent|rule|
           tool|session|day for one view); prediction accuracy, all-matched and unverifiable shares,
           Brier score; the newest mismatches (predicted vs observed); evidence age, refusal →
           prediction and directive → action (median, p90); each rule's fires, last fire and what
           its refusals ended in, rules that never fired; flags (perfunctory predictions, declines
           that tried no read, refusals repeated after a decline). --csv: the figures as CSV
  verify   walk the hash chain; exit 1 naming the first broken row. --against F|git:REF also checks
           that the store still holds the newest head anchored there (same store id, at least the
           anchored seq, the anchored hash at that seq): exit 1 naming it replaced, truncated,
           rolled back or rewritten — what an intact-looking chain cannot show
  export   every matching row, streamed in constant memory: JSON lines (the stored rows, default)
           or CSV; a progress line on stderr when it is a terminal
  replay   what-if: the recorded calls classified again with FILE in place of the configured rule
           files (builtin:files stays), and which decisions would change — newly gated, no longer
           gated, gated by other rules — per rule
  anchor   a person only (an operator token, or a terminal no agent host runs, as for override):
           record the chain head (store id, seq, hash, rows, time) outside the store — appended to
           <state dir>/anchors/<project>.jsonl (default), to F, or committed to the git ref REF
           (e.g. refs/tollgate/anchors) of the project repository. Refuses a broken chain.

  --since TIME   an ISO date-time (2026-11-22T12:00:00Z), or a duration back from now (90s, 15m, 2h, 7d)
  --until TIME   the same; rows before it

Exit codes: 0; 1 when verify finds a broken chain or a failed anchor, show finds no such row, or on
usage errors.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [sub, ...positionals] = args.positionals;
    const json = flag(args, 'json');
    if (!sub || !SUBCOMMANDS.includes(sub))
      throw new UsageError(
        `audit needs a subcommand, got ${JSON.stringify(sub ?? '')}`,
        'tollgate audit list|show|report|verify|export|replay|anchor',
      );
    if (sub !== 'show' && positionals.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(positionals[0])}`, `see tollgate audit --help`);
    if (sub === 'anchor') return anchor(args, io);
    const file = option(args, 'policy');
    if (sub === 'replay' && file === undefined)
      throw new UsageError(
        'audit replay needs --policy FILE',
        'tollgate audit replay --policy NEW.yaml [--since 7d]',
      );
    const runtime = await openRuntime({
      cwd: io.cwd,
      env: io.env,
      channel: 'cli',
      ...(sub === 'replay' && file !== undefined ? { gate: { policy: replayPolicy(file, io.cwd) } } : {}),
    });
    try {
      const filter = filters(args);
      switch (sub) {
        case 'list': {
          const limit = intOption(args, 'limit', 1);
          const rows = await runtime.store.listAudit({
            ...filter,
            ...(limit !== undefined ? { limit } : {}),
          });
          if (json) writeJson(io, rows);
          else if (rows.length === 0) io.stdout.write('no rows\n');
          else for (const row of rows) printRow(io, row);
          return 0;
        }
        case 'show': {
          const id = positionals[0];
          if (!id || positionals.length > 1)
            throw new UsageError(
              'audit show needs exactly one row id',
              'tollgate audit show ID (ids: tollgate audit list)',
            );
          const view = await auditView(runtime.store, id);
          if (!view) {
            const message = `no audit row ${JSON.stringify(id)}`;
            if (json)
              writeJson(io, {
                error: { code: 'not_found', message, fix: 'check the id with tollgate audit list' },
              });
            else io.stderr.write(`tollgate: ${message}\n  fix: check the id with tollgate audit list\n`);
            return 1;
          }
          if (json) writeJson(io, view);
          else printView(io, view);
          return 0;
        }
        case 'report': {
          const query = reportQuery(args);
          const report = await buildReport(runtime.store, query, {
            ruleIds: runtime.policy.rules.map((r) => r.rule.id),
          });
          if (json) writeJson(io, report);
          else if (flag(args, 'csv')) io.stdout.write(reportCsv(report, query.by));
          else io.stdout.write(reportText(report, query.by));
          return 0;
        }
        case 'replay': {
          const window = windowOf(args);
          const result = await replay(runtime.store, runtime.gate, window);
          if (json) writeJson(io, result);
          else io.stdout.write(replayText(result, file as string));
          return 0;
        }
        case 'verify': {
          const against = option(args, 'against');
          if (against !== undefined) return await verifyAgainst(runtime, against, io, json);
          const check = await runtime.store.verifyAudit();
          if (json) writeJson(io, check);
          else if (check.ok) io.stdout.write(`ok: ${check.rows} rows, chain intact\n`);
          else
            io.stderr.write(
              `broken: row seq ${check.broken_at.seq}${check.broken_at.id ? ` (id ${check.broken_at.id})` : ''}: ${check.broken_at.problem}; ${check.rows} rows checked\n`,
            );
          return check.ok ? 0 : 1;
        }
        default: {
          const format = option(args, 'format') ?? 'jsonl';
          if (format !== 'jsonl' && format !== 'csv')
            throw new UsageError(
              `--format ${JSON.stringify(format)} is neither jsonl nor csv`,
              '--format jsonl|csv',
            );
          const { session, agent } = filter;
          await exportAudit(
            runtime.store,
            {
              ...windowOf(args),
              ...(session !== undefined ? { session } : {}),
              ...(agent !== undefined ? { agent } : {}),
            },
            format as ExportFormat,
            io,
          );
          return 0;
        }
      }
    } finally {
      await runtime.close();
    }
  },
);

function filters(args: ParsedArgs): { session?: string; agent?: string; since?: number } {
  const out: { session?: string; agent?: string; since?: number } = {};
  const session = option(args, 'session');
  const agent = option(args, 'agent');
  const since = option(args, 'since');
  if (session !== undefined) out.session = session;
  if (agent !== undefined) out.agent = agent;
  if (since !== undefined) out.since = parseSince(since, Date.now());
  return out;
}

/** --since and --until as epoch ms. */
function windowOf(args: ParsedArgs): { since?: number; until?: number } {
  const now = Date.now();
  const since = option(args, 'since');
  const until = option(args, 'until');
  return {
    ...(since !== undefined ? { since: parseSince(since, now) } : {}),
    ...(until !== undefined ? { until: parseSince(until, now) } : {}),
  };
}

function reportQuery(args: ParsedArgs): ReportQuery {
  const query: ReportQuery = windowOf(args);
  for (const key of ['session', 'agent', 'rule', 'tool'] as const) {
    const value = option(args, key);
    if (value !== undefined) query[key] = value;
  }
  const by = option(args, 'by');
  if (by !== undefined) {
    if (!REPORT_DIMENSIONS.includes(by as ReportDimension))
      throw new UsageError(
        `--by ${JSON.stringify(by)} is not one of ${REPORT_DIMENSIONS.join(', ')}`,
        '--by agent|rule|tool|session|day',
      );
    query.by = by as ReportDimension;
  }
  const limit = intOption(args, 'limit', 0);
  if (limit !== undefined) query.limit = limit;
  return query;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseSince(text: string, now: number): number {
  const duration = /^(\d+)([smhd])$/.exec(text);
  if (duration) return now - Number(duration[1]) * (UNITS[duration[2] as string] as number);
  const at = Date.parse(text);
  if (/^\d{4}-\d{2}-\d{2}/.test(text) && Number.isFinite(at)) return at;
  throw new UsageError(
    `--since ${JSON.stringify(text)} is neither an ISO date-time nor a duration`,
    'e.g. --since 2026-11-22T12:00:00Z or --since 2h',
  );
}
