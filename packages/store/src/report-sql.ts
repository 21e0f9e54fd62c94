// Store.report and Store.ruleHistory for both dialects, through kysely: every figure is an aggregate
// the database computes over audit_facts / audit_rules (see migration-report.ts for the indexes), so
// the cost is a few scans of a narrow table, never the audit documents pulled into memory. Only the
// listed rows (mismatches, flagged decisions) read `doc`, and at most `limit` of each.
import type { AuditRow } from '@tollgate/contracts';
import {
  type Flag,
  type FlaggedRow,
  type MismatchEntry,
  NO_AGENT,
  type ReportFigures,
  type ReportGroup,
  type ReportQuery,
  type RuleHistory,
  type RuleRecord,
  type Spread,
  type StoreReport,
} from '@tollgate/core';
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely';
import { DAY_MS } from './audit-rollup.js';
import { rollupByAgentDay, rollupByRule, splitWindow } from './report-rollup.js';
import {
  DECLINED_BLIND as BLIND,
  FLAG_SUMS,
  PERFUNCTORY as PERF,
  REPEATED as REP,
  SUM_KEYS,
  SUMS,
} from './report-sums.js';
import { FIRES_SCANNED, RECENT_OUTCOMES, ruleHistoryOf } from './rule-history.js';
import type { Database } from './schema.js';

const DEFAULT_LIST = 20;
const MAX_LIST = 200;

type Db = Kysely<Database>;
type Num = number | string | null | undefined;

type Sums = Record<(typeof SUM_KEYS)[number], number> & { last_ms: number | null };

/** The window and filters over facts alias `a`, as one boolean expression. */
function scope(q: ReportQuery, a: string): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`${sql.ref(`${a}.kind`)} in ('decision', 'outcome')`];
  if (q.since !== undefined) parts.push(sql`${sql.ref(`${a}.at_ms`)} >= ${q.since}`);
  if (q.until !== undefined) parts.push(sql`${sql.ref(`${a}.at_ms`)} < ${q.until}`);
  if (q.agent !== undefined) parts.push(sql`${sql.ref(`${a}.agent`)} = ${q.agent}`);
  if (q.session !== undefined) parts.push(sql`${sql.ref(`${a}.session`)} = ${q.session}`);
  if (q.tool !== undefined) parts.push(sql`${sql.ref(`${a}.tool`)} = ${q.tool}`);
  if (q.rule !== undefined)
    parts.push(
      sql`exists (select 1 from audit_rules sr where sr.seq = ${sql.ref(`${a}.seq`)} and sr.rule = ${q.rule})`,
    );
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

const KEYS = {
  agent: sql`coalesce(f.agent, ${sql.lit(NO_AGENT)})`,
  tool: sql`coalesce(f.tool, ${sql.lit(NO_AGENT)})`,
  session: sql`f.session`,
  day: sql`f.at_ms / ${sql.lit(DAY_MS)}`,
};

// `cross join` fixes the join order (SQLite keeps it; PostgreSQL plans freely): the window's rule
// rows drive (a range scan of the covering audit_rules_window; pass decisions have none), each joined
// to its facts by primary key, instead of a scan of every rule row ever written.
const RULES_FACTS = sql`audit_rules r cross join audit_facts f`;

/** The window over alias `a`'s at_ms alone. */
function window(q: ReportQuery, a: string): RawBuilder<SqlBool> {
  const parts: RawBuilder<unknown>[] = [sql`1 = 1`];
  if (q.since !== undefined) parts.push(sql`${sql.ref(`${a}.at_ms`)} >= ${q.since}`);
  if (q.until !== undefined) parts.push(sql`${sql.ref(`${a}.at_ms`)} < ${q.until}`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

function sumsOf(row: Record<string, Num>): Sums {
  const sums = Object.fromEntries(SUM_KEYS.map((s) => [s, Number(row[s] ?? 0)])) as Sums;
  sums.last_ms = row.last_ms === null || row.last_ms === undefined ? null : Number(row.last_ms);
  return sums;
}

function dayName(k: Num): string {
  return new Date(Number(k) * DAY_MS).toISOString().slice(0, 10);
}

function into(map: Map<string, Sums>, key: string, sums: Sums): void {
  const seen = map.get(key);
  if (seen === undefined) map.set(key, { ...sums });
  else addSums(seen, sums);
}

// The figures of a decision that was not gated (a pass or a dry look): a few counts, no claims.
const LIGHT_SUMS = `
  sum(case when f.dry_run = 0 then 1 else 0 end) as decisions,
  sum(case when f.dry_run = 0 and f.outcome = 'pass' then 1 else 0 end) as pass,
  sum(f.dry_run) as dry_runs,
  sum(case when f.dry_run = 0 then f.would_reject else 0 end) as would_reject,
  max(case when f.dry_run = 0 then f.at_ms end) as last_ms,
  count(*) as row_count`;

const PERFUNCTORY = sql.raw(PERF);
const DECLINED_BLIND = sql.raw(BLIND);
const REPEATED = sql.raw(REP);

/**
 * The window grouped by (agent, day, and the --by dimension when it is tool or session), folded here
 * into the per-agent, per-day and per-dimension views (the sums are additive). Two scans: every
 * figure over the gated decisions and outcomes (audit_facts_gated), a few counts over the rest —
 * passes are most rows and have no claims, rates or latencies to add up.
 */
async function sumsByAgentDay(
  db: Db,
  q: ReportQuery,
  extra: 'tool' | 'session' | undefined,
  rollups: boolean,
): Promise<AgentDayScan> {
  const split = rollups ? splitWindow(q) : { raw: [q] };
  const pieces = await Promise.all([
    ...(split.days === undefined ? [] : [rollupByAgentDay(db, split.days, q, extra === 'tool', NO_AGENT)]),
    ...split.raw.map((w) => rawByAgentDay(db, w, extra)),
  ]);
  const out: AgentDayScan = {
    agent: new Map(),
    day: new Map(),
    extra: new Map(),
    reasons: new Map(),
    flags: [0, 0, 0],
  };
  for (const row of pieces.flat()) {
    const sums = sumsOf(row);
    into(out.agent, String(row.a), sums);
    into(out.day, dayName(row.d), sums);
    if (extra !== undefined) into(out.extra, String(row.x), sums);
    if (row.rc !== null && row.rc !== undefined && sums.decisions > 0)
      out.reasons.set(String(row.rc), (out.reasons.get(String(row.rc)) ?? 0) + sums.decisions);
    out.flags[0] += Number(row.flag_p ?? 0);
    out.flags[1] += Number(row.flag_d ?? 0);
    out.flags[2] += Number(row.flag_r ?? 0);
  }
  return out;
}

/** The raw rows of a window grouped by (agent, day, the --by dimension, first reason): two scans. */
async function rawByAgentDay(
  db: Db,
  q: ReportQuery,
  extra: 'tool' | 'session' | undefined,
): Promise<Record<string, Num>[]> {
  const third = extra === undefined ? sql`''` : KEYS[extra];
  const keys = sql`${KEYS.agent} as a, ${KEYS.day} as d, ${third} as x, f.reason as rc`;
  const [heavy, light] = await Promise.all([
    // The flag counts ride along: a gated row's predecessor is one primary-key seek.
    sql<Record<string, Num>>`
      select ${keys}, ${sql.raw(SUMS)}, ${sql.raw(FLAG_SUMS)}
      from audit_facts f left join audit_facts p on p.seq = f.prev_seq
      where ${scope(q, 'f')} and (f.gated = 1 or f.kind = 'outcome') group by 1, 2, 3, 4`.execute(db),
    sql<Record<string, Num>>`
      select ${keys}, ${sql.raw(LIGHT_SUMS)} from audit_facts f
      where ${scope(q, 'f')} and f.gated = 0 and f.kind = 'decision' group by 1, 2, 3, 4`.execute(db),
  ]);
  return [...heavy.rows, ...light.rows];
}

interface AgentDayScan {
  agent: Map<string, Sums>;
  day: Map<string, Sums>;
  extra: Map<string, Sums>;
  /** Non-dry decisions per first reason code. */
  reasons: Map<string, number>;
  /** perfunctory, declined while queryable, repeated. */
  flags: [number, number, number];
}

/** The five most frequent first reason codes, most frequent first. */
function topReasons(reasons: Map<string, number>): StoreReport['top_reasons'] {
  return [...reasons]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, 5)
    .map(([code, count]) => ({ code, count }));
}

// The key is an expression, not the column: grouping by r.rule would tempt SQLite (with statistics)
// into a skip-scan of audit_rules_by_rule for its order, which then reads every rule row's table row;
// the range over audit_rules_window reads the index alone and groups in a temporary b-tree instead.
async function sumsByRule(db: Db, q: ReportQuery, rollups: boolean): Promise<Map<string, Sums>> {
  // Under a rule filter the view lists every rule of the rows naming it: the raw rows know them.
  const split = rollups && q.rule === undefined ? splitWindow(q) : { raw: [q] };
  const pieces = await Promise.all([
    ...(split.days === undefined ? [] : [rollupByRule(db, split.days, q)]),
    ...split.raw.map(async (w) => {
      const { rows } = await sql<Record<string, Num>>`
        select r.rule || '' as k, ${sql.raw(SUMS)} from ${RULES_FACTS}
        where ${window(w, 'r')} and f.seq = r.seq and ${scope(w, 'f')} group by 1`.execute(db);
      return rows;
    }),
  ]);
  const out = new Map<string, Sums>();
  for (const row of pieces.flat()) into(out, String(row.k), sumsOf(row));
  return out;
}

function figures(s: Sums): ReportFigures {
  const gated = s.dispatch + s.declined + s.rejected;
  const rate = (x: number) => (gated === 0 ? null : round(x / gated));
  const checked = s.matched + s.mismatched;
  return {
    decisions: s.decisions,
    by_outcome: { pass: s.pass, dispatch: s.dispatch, declined: s.declined, rejected: s.rejected },
    dry_runs: s.dry_runs,
    would_reject: s.would_reject,
    escalations: s.escalations,
    overrides: s.overrides,
    rates: {
      decline: rate(s.declined),
      rejection: rate(s.rejected),
      override: rate(s.overrides),
      escalation: rate(s.escalations),
    },
    claims: { matched: s.matched, mismatched: s.mismatched, unverifiable: s.unverifiable },
    accuracy: checked === 0 ? null : round(s.matched / checked),
    predictions: {
      observed: s.observed,
      all_matched: s.observed === 0 ? null : round(s.all_matched / s.observed),
      unverifiable: s.observed === 0 ? null : round(s.none_checked / s.observed),
    },
    brier: { score: s.brier_n === 0 ? null : round(s.brier_sum / s.brier_n), claims: s.brier_n },
  };
}

function addSums(into: Sums, s: Sums): void {
  for (const k of SUM_KEYS) into[k] += s[k];
  if (s.last_ms !== null && (into.last_ms === null || s.last_ms > into.last_ms)) into.last_ms = s.last_ms;
}

function emptySums(): Sums {
  const s = Object.fromEntries(SUM_KEYS.map((k) => [k, 0])) as Sums;
  s.last_ms = null;
  return s;
}

function record(map: Map<string, Sums>): Record<string, ReportFigures> {
  const out: Record<string, ReportFigures> = {};
  for (const key of [...map.keys()].sort()) out[key] = figures(map.get(key) as Sums);
  return out;
}

function groups(map: Map<string, Sums>): ReportGroup[] {
  return [...map.keys()].sort().map((key) => ({ key, ...figures(map.get(key) as Sums) }));
}

/**
 * Median and p90 (nearest rank) of `value` over the rows `from … where` selects, in one scan: the
 * rows are numbered in value order and only the two ranks come back.
 */
async function spread(
  db: Db,
  value: RawBuilder<unknown>,
  from: RawBuilder<unknown>,
  where: Expression<SqlBool>,
  scale: number,
): Promise<Spread> {
  const { rows } = await sql<{ v: Num; rn: Num; n: Num }>`
    select v, rn, n from (
      select ${value} as v, row_number() over (order by ${value}) as rn, count(*) over () as n
      from ${from} where ${where}
    ) ranked
    where rn = (n + 1) / 2 or rn = n - n / 10`.execute(db);
  const n = Number(rows[0]?.n ?? 0);
  if (n === 0) return { n: 0, median: null, p90: null };
  const at = (rank: number) => {
    const row = rows.find((r) => Number(r.rn) === rank);
    return row === undefined ? null : round(Number(row.v) / scale);
  };
  return { n, median: at(Math.ceil(0.5 * n)), p90: at(Math.ceil(0.9 * n)) };
}

async function latency(db: Db, q: ReportQuery): Promise<StoreReport['latency']> {
  const facts = sql`audit_facts f`;
  const dispatched = sql<SqlBool>`${scope(q, 'f')} and f.gated = 1 and f.outcome = 'dispatch'`;
  const [evidence, followed, directive] = await Promise.all([
    spread(db, sql`f.evidence_max_ms`, facts, sql`${dispatched} and f.evidence_max_ms is not null`, 1000),
    spread(
      db,
      sql`f.at_ms - p.at_ms`,
      sql`audit_facts f join audit_facts p on p.seq = f.prev_seq`,
      sql`${dispatched} and f.predicted = 1 and f.overridden = 0 and p.outcome = 'rejected'`,
      1000,
    ),
    spread(
      db,
      sql`f.directive_ms`,
      facts,
      sql`${scope(q, 'f')} and f.kind = 'decision' and f.dry_run = 0 and f.directive_ms is not null`,
      1,
    ),
  ]);
  return { evidence_age_s: evidence, rejection_to_prediction_s: followed, directive_to_action_ms: directive };
}

/** Per rule: what the next gated decision of a refused call was (the refusal's successor by prev_seq). */
async function endings(db: Db, q: ReportQuery): Promise<Map<string, RuleRecord['ended']>> {
  // A successor is newer than its refusal, so the refusals' window bounds the successors' from below.
  const since = q.since === undefined ? sql`` : sql`and n.at_ms >= ${q.since}`;
  const until = q.until === undefined ? sql`` : sql`and n.at_ms < ${q.until}`;
  const { rows } = await sql<Record<string, Num>>`
    select r.rule as rule,
      sum(case when n.outcome = 'dispatch' and n.overridden = 0 then 1 else 0 end) as prediction,
      sum(case when n.outcome = 'dispatch' and n.overridden = 1 then 1 else 0 end) as override,
      sum(case when n.outcome = 'declined' then 1 else 0 end) as decline,
      sum(case when n.outcome = 'rejected' then 1 else 0 end) as again
    from audit_facts n cross join audit_facts p cross join audit_rules r
    where n.gated = 1 and p.seq = n.prev_seq and r.seq = p.seq and r.kind = 'decision'
      and p.outcome = 'rejected' and ${scope(q, 'p')} ${since} ${until}
    group by r.rule`.execute(db);
  const out = new Map<string, RuleRecord['ended']>();
  for (const row of rows)
    out.set(String(row.rule), {
      prediction: Number(row.prediction ?? 0),
      decline: Number(row.decline ?? 0),
      override: Number(row.override ?? 0),
      again: Number(row.again ?? 0),
      nothing: 0,
    });
  return out;
}

/**
 * The newest `limit` seqs of each flag (with the refusal → prediction gap), in one pass over the
 * window's gated rows. A row may raise two flags (a refused prediction citing a read the rule does
 * not accept, right after a decline: perfunctory and repeated), so each flagged row is paired with
 * the flags it raises and numbered newest first within each. Every flag is of a gated row; saying so
 * lets SQLite read the window through audit_facts_gated.
 */
async function flagged(db: Db, q: ReportQuery, limit: number): Promise<[FlagSeq[], FlagSeq[], FlagSeq[]]> {
  const out: [FlagSeq[], FlagSeq[], FlagSeq[]] = [[], [], []];
  if (limit === 0) return out;
  const { rows } = await sql<{ flag: Num; seq: Num; gap: Num }>`
    select flag, seq, gap from (
      select k.flag as flag, g.seq as seq, g.gap as gap,
        row_number() over (partition by k.flag order by g.seq desc) as rn
      from (
        select f.seq as seq, case when p.outcome = 'rejected' then f.filed_ms - p.at_ms end as gap,
          case when ${PERFUNCTORY} then 1 else 0 end as fp,
          case when ${DECLINED_BLIND} then 1 else 0 end as fd,
          case when ${REPEATED} then 1 else 0 end as fr
        from audit_facts f left join audit_facts p on p.seq = f.prev_seq
        where ${scope(q, 'f')} and f.gated = 1 and ((${PERFUNCTORY}) or (${DECLINED_BLIND}) or (${REPEATED}))
      ) g cross join (select 0 as flag union all select 1 union all select 2) k
      where (k.flag = 0 and g.fp = 1) or (k.flag = 1 and g.fd = 1) or (k.flag = 2 and g.fr = 1)
    ) numbered
    where rn <= ${limit} order by seq desc`.execute(db);
  for (const r of rows)
    out[Number(r.flag) as 0 | 1 | 2].push({
      seq: Number(r.seq),
      gap_ms: r.gap === null || r.gap === undefined ? null : Number(r.gap),
    });
  return out;
}

type FlagSeq = { seq: number; gap_ms: number | null };

interface RowInfo {
  id: string;
  at: string;
  session: string;
  agent: string | null;
  doc?: string;
}

/** The audit columns (and optionally docs) and the rules of a few rows, by seq. */
async function rowsBySeq(
  db: Db,
  seqs: number[],
  withDoc: boolean,
): Promise<Map<number, RowInfo & { rules: string[]; tool: string | null }>> {
  const out = new Map<number, RowInfo & { rules: string[]; tool: string | null }>();
  if (seqs.length === 0) return out;
  const base = db
    .selectFrom('audit as a')
    .innerJoin('audit_facts as f', 'f.seq', 'a.seq')
    .select(['a.seq', 'a.id', 'a.at', 'a.session', 'a.agent', 'f.tool'])
    .where('a.seq', 'in', seqs);
  const [rows, rules] = await Promise.all([
    withDoc ? base.select('a.doc').execute() : base.execute(),
    db.selectFrom('audit_rules').select(['seq', 'rule']).where('seq', 'in', seqs).orderBy('rule').execute(),
  ]);
  for (const r of rows as (RowInfo & { seq: Num; tool: string | null })[])
    out.set(Number(r.seq), {
      id: r.id,
      at: r.at,
      session: r.session,
      agent: r.agent,
      tool: r.tool,
      rules: [],
      ...(r.doc !== undefined ? { doc: r.doc } : {}),
    });
  for (const r of rules) out.get(Number(r.seq))?.rules.push(r.rule);
  return out;
}

async function flags(
  db: Db,
  q: ReportQuery,
  limit: number,
  counts: [number, number, number],
): Promise<StoreReport['flags']> {
  // The lists only when a flag was raised: otherwise the pass would find nothing to list.
  const [perfunctory, declined, repeated] =
    counts[0] + counts[1] + counts[2] === 0 ? [[], [], []] : await flagged(db, q, limit);
  const info = await rowsBySeq(
    db,
    [...perfunctory, ...declined, ...repeated].map((s) => s.seq),
    false,
  );
  const toFlag = (count: number, seqs: FlagSeq[], gap: boolean): Flag => ({
    count,
    rows: seqs.flatMap(({ seq, gap_ms }) => {
      const r = info.get(seq);
      if (r === undefined) return [];
      const row: FlaggedRow = {
        audit_id: r.id,
        link: `/v1/audit/${r.id}`,
        at: r.at,
        session: r.session,
        agent: r.agent,
        tool: r.tool,
        rules: r.rules,
      };
      if (gap && gap_ms !== null) row.seconds_after_rejection = round(gap_ms / 1000);
      return [row];
    }),
  });
  return {
    perfunctory: toFlag(counts[0], perfunctory, true),
    declined_while_queryable: toFlag(counts[1], declined, false),
    repeated: toFlag(counts[2], repeated, false),
  };
}

// `f.kind = 'outcome' and f.mismatched > 0` spelled as audit_facts_mismatched's condition, so SQLite
// reads the window's mismatched outcomes from that index alone (migration 0014).
async function mismatches(db: Db, q: ReportQuery, limit: number): Promise<MismatchEntry[]> {
  const { rows } = await sql<{ seq: Num }>`
    select f.seq as seq from audit_facts f where ${scope(q, 'f')} and f.kind = 'outcome' and f.mismatched > 0
    order by f.seq desc limit ${limit}`.execute(db);
  const info = await rowsBySeq(
    db,
    rows.map((r) => Number(r.seq)),
    true,
  );
  const out: MismatchEntry[] = [];
  for (const { seq } of rows) {
    const r = info.get(Number(seq));
    if (r?.doc === undefined) continue;
    const row = JSON.parse(r.doc) as AuditRow;
    const decision = row.ref ?? row.id;
    for (const c of row.claims ?? []) {
      if (c.result !== 'mismatched' || out.length >= limit) continue;
      out.push({
        audit_id: decision,
        outcome_id: row.id,
        link: `/v1/audit/${decision}`,
        at: row.at,
        session: row.session,
        agent: row.agent ?? null,
        tool: row.tool ?? null,
        rules: r.rules,
        subject: c.claim.subject,
        op: c.claim.op,
        predicted: 'value' in c.claim ? c.claim.value : null,
        observed: c.observed ?? null,
        confidence: c.claim.confidence ?? null,
      });
    }
  }
  return out;
}

/**
 * `rollups: false` computes every figure from the raw rows (the tests compare the two); by default
 * the whole days of the window come from the day rollups.
 */
export async function reportQuery(db: Db, q: ReportQuery, rollups = true): Promise<StoreReport> {
  const limit = Math.min(MAX_LIST, Math.max(0, Math.floor(q.limit ?? DEFAULT_LIST)));
  const extra = q.by === 'tool' || q.by === 'session' ? q.by : undefined;
  const [scan, byRule, lat, ended, listed] = await Promise.all([
    sumsByAgentDay(db, q, extra, rollups),
    sumsByRule(db, q, rollups),
    latency(db, q),
    endings(db, q),
    mismatches(db, q, limit),
  ]);
  const flagSet = await flags(db, q, limit, scan.flags);
  const byAgent = scan.agent;
  const byDay = scan.day;
  const total = emptySums();
  for (const s of byAgent.values()) addSums(total, s);
  const rules: RuleRecord[] = [...byRule.keys()].sort().map((rule) => {
    const s = byRule.get(rule) as Sums;
    const end = ended.get(rule) ?? { prediction: 0, decline: 0, override: 0, again: 0, nothing: 0 };
    end.nothing = Math.max(0, s.rejected - end.prediction - end.decline - end.override - end.again);
    return {
      rule,
      ...figures(s),
      fires: s.decisions,
      last_fired: s.last_ms === null ? null : new Date(s.last_ms).toISOString(),
      refusals: s.rejected,
      ended: end,
    };
  });
  const report: StoreReport = {
    rows: total.row_count,
    totals: figures(total),
    by_agent: record(byAgent),
    by_rule: record(byRule),
    series: groups(byDay),
    top_reasons: topReasons(scan.reasons),
    latency: lat,
    rules,
    mismatches: listed,
    flags: flagSet,
  };
  if (q.by !== undefined)
    report.groups = groups(
      q.by === 'agent' ? byAgent : q.by === 'rule' ? byRule : q.by === 'day' ? byDay : scan.extra,
    );
  return report;
}

/** `agent`: only that agent's rows — what one agent is shown never includes another's outputs. */
export async function ruleHistoryQuery(
  db: Db,
  rule: string,
  since: number,
  limit: number,
  agent?: string,
): Promise<RuleHistory> {
  const own = agent === undefined ? sql`` : sql`and f.agent = ${agent}`;
  const mine = agent === undefined ? sql`true` : sql`f.agent = ${agent}`;
  const [{ rows: fired }, { rows: found }] = await Promise.all([
    sql<{ n: Num; scanned: Num }>`
      select count(*) as scanned, coalesce(sum(case when ${mine} then 1 else 0 end), 0) as n
      from (select seq from audit_rules
          where rule = ${rule} and at_ms >= ${since} and kind = 'decision' order by at_ms desc
          limit ${FIRES_SCANNED}) r
        cross join audit_facts f where f.seq = r.seq`.execute(db),
    sql<{ seq: Num }>`
      select r.seq as seq from (select seq, at_ms from audit_rules where rule = ${rule} and kind = 'outcome'
          order by at_ms desc limit ${RECENT_OUTCOMES}) r
        cross join audit_facts f
      where f.seq = r.seq and f.mismatched > 0 ${own}
      order by r.at_ms desc limit ${Math.max(0, Math.floor(limit))}`.execute(db),
  ]);
  const seqs = found.map((r) => Number(r.seq));
  const docs =
    seqs.length === 0
      ? []
      : await db.selectFrom('audit').select(['seq', 'doc']).where('seq', 'in', seqs).execute();
  const bySeq = new Map(docs.map((d) => [Number(d.seq), JSON.parse(d.doc) as AuditRow]));
  const rows = seqs.flatMap((seq) => bySeq.get(seq) ?? []);
  const fires = { n: Number(fired[0]?.n ?? 0), scanned: Number(fired[0]?.scanned ?? 0) };
  return ruleHistoryOf(rule, fires, rows, limit);
}

function round(x: number): number {
  return Math.round(x * 10000) / 10000;
}
