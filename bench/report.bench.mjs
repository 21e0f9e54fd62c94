// The calibration report at scale: ROWS audit rows (default 1,000,000; quick mode 20,000; or
// REPORT_BENCH_ROWS=N) over 30 days, seeded straight into the tables in one transaction (the chain is
// bypassed: the bench measures reports, not appends) and the day rollups then built from the facts
// as migration 0013 builds them, on SQLite and on PostgreSQL. Timed: the
// seven-day report (Store.report, every figure), and export of every row (Store.exportAudit, the JSON
// lines `tollgate audit export` writes) with its peak memory growth. Baseline: one count(*) over the
// same seven days of audit_facts, measured in the same run. REPORT_BENCH_STORES=sqlite skips PostgreSQL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  auditFacts,
  FACT_COLUMNS as DERIVED,
  PostgresStore,
  ROLLUP_REBUILD_SQL,
  SqliteStore,
} from '@tollgate/store';
import Database from 'better-sqlite3';
import pg from 'pg';
import { scaled } from './mode.mjs';

// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this bench only, never by a turbo task.
const ROWS = Number(process.env.REPORT_BENCH_ROWS ?? scaled(1_000_000, 20_000));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this bench only, never by a turbo task.
const ONLY_SQLITE = process.env.REPORT_BENCH_STORES === 'sqlite';
// The issue's targets: 1,000,000 rows ≤ 1 s on SQLite, ten million ≤ 5 s.
const SQLITE_TARGET_MS = ROWS >= 10_000_000 ? 5000 : 1000;
const PG_URL = process.env.TOLLGATE_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DAY = 86_400_000;
const SPAN = 30 * DAY;
const NOW = Date.parse('2026-11-22T12:00:00Z');
const RULES = Array.from({ length: 40 }, (_, i) => `rule.${String(i).padStart(2, '0')}`);
const AGENTS = Array.from({ length: 20 }, (_, i) => `agent-${i}`);
const TOOLS = [
  'shell',
  'shell',
  'shell',
  'shell',
  'deploy',
  'db_execute',
  'write_file',
  'http',
  'mcp.fs',
  'k8s',
];

export async function run() {
  const rows = [];
  const sqlite = await benchSqlite(rows);
  const postgres = await (ONLY_SQLITE ? Promise.resolve(undefined) : benchPostgres(rows)).catch((error) => {
    rows.push({ name: `PostgreSQL unavailable: ${String(error.message ?? error).slice(0, 120)}`, value: '' });
    return undefined;
  });
  return {
    title: `calibration report and export, ${ROWS.toLocaleString('en')} audit rows over 30 days`,
    rows,
    notes: [
      `Seven-day window: ${sqlite.window.toLocaleString('en')} rows. Seeding: SQLite ${sqlite.seedS.toFixed(1)} s (of which the day rollups ${rollupS.toFixed(1)} s)${postgres ? `, PostgreSQL ${postgres.seedS.toFixed(1)} s` : ''} (bulk inserts in one transaction, chain bypassed).`,
    ],
  };
}

/** A deterministic generator of realistic rows: the doc as stored, its facts and rules. */
function* history(n) {
  let seed = 42;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const prev = new Map();
  const hex = (i) => i.toString(16).padStart(64, '0');
  let seq = 0;
  while (seq < n) {
    const at = NOW - SPAN + Math.floor((seq / n) * SPAN);
    const session = `s-${Math.floor(seq / 50)}`;
    const agent = AGENTS[Math.floor(seq / 50) % AGENTS.length];
    const tool = TOOLS[Math.floor(rand() * TOOLS.length)];
    const digest = hex(Math.floor(seq / 50) * 8 + Math.floor(rand() * 5));
    const r = rand();
    const outcome =
      r < 0.68 ? 'pass' : r < 0.8 ? 'rejected' : r < 0.89 ? 'dispatch' : r < 0.9 ? 'declined' : 'pass';
    const dry = r >= 0.9 && r < 0.91;
    const gated = outcome !== 'pass' && !dry;
    const rules = outcome === 'pass' && r < 0.68 ? [] : [RULES[Math.floor(rand() * RULES.length)]];
    if (rules.length > 0 && rand() < 0.2) rules.push(RULES[Math.floor(rand() * RULES.length)]);
    const unique = [...new Set(rules)];
    const id = `01J${String(seq).padStart(23, '0')}`;
    const key = `${session}|${digest}`;
    const prevSeq = gated ? (prev.get(key) ?? null) : null;
    seq++;
    if (gated) prev.set(key, seq);
    const overridden = outcome === 'dispatch' && rand() < 0.05;
    const predicted = outcome === 'dispatch' && !overridden;
    const ages = predicted ? [Math.floor(rand() * 600_000), Math.floor(rand() * 60_000)] : [];
    const directive = rand() < 0.3 ? Math.floor(rand() * 120_000) : null;
    const claims = predicted
      ? [
          {
            subject: 'git ls-remote origin refs/heads/main',
            op: 'contains',
            value: 'abc1234',
            confidence: 0.8,
          },
          { subject: 'git status --short', op: 'eq', value: '' },
        ]
      : undefined;
    const doc = {
      id,
      seq,
      at: new Date(at).toISOString(),
      kind: 'decision',
      session,
      agent,
      tool,
      call_digest: digest,
      call: { tool, args: { command: `git push --force origin feature-${seq % 997}`, cwd: '/srv/app' } },
      class: outcome === 'pass' ? 'unmatched' : 'irreversible',
      rules: unique,
      mode: 'enforce',
      outcome: dry ? 'rejected' : outcome,
      would_reject: false,
      reasons: outcome === 'rejected' || dry ? ['prediction_missing'] : [],
      ...(directive !== null ? { directive_latency_ms: directive } : {}),
      ...(dry ? { dry_run: true } : {}),
      ...(outcome === 'rejected' && rand() < 0.03 ? { escalation: 'ask_human' } : {}),
      ...(overridden ? { override_id: `01K${String(seq).padStart(23, '0')}` } : {}),
      ...(claims
        ? { prediction: { claims, evidence: [{ source: 'git rev-parse HEAD', quote: 'abc1234' }] } }
        : {}),
      ...(ages.length
        ? { evidence: ages.map((a, k) => ({ observation: `01E${k}${id.slice(4)}`, age_s: a / 1000 })) }
        : {}),
      ...(outcome === 'declined'
        ? { decline: { irreducible: 'x', would_change_my_mind: ['y'], attempted_observations: [] } }
        : {}),
      prev_hash: hex(seq - 1),
      hash: hex(seq),
    };
    // The store's own derivation (what an append writes), plus the two lookups an append does in SQL.
    const derived = auditFacts(doc, at);
    // An inline prediction is filed with its decision; no reads are seeded, so no read_ms.
    const filed = derived.predicted === 1 ? at : null;
    const facts = { ...derived, ref_seq: null, prev_seq: prevSeq, filed_ms: filed, read_ms: null };
    yield { doc, facts, rules: unique, ruleKind: dry ? 'dry' : 'decision' };
    if (predicted && seq < n) {
      const x = rand();
      const results =
        x < 0.8
          ? ['matched', 'matched']
          : x < 0.92
            ? ['mismatched', 'matched']
            : ['unverifiable', 'unverifiable'];
      const decision = seq;
      seq++;
      const outcomeDoc = {
        id: `01O${String(seq).padStart(23, '0')}`,
        seq,
        at: new Date(at + 5000).toISOString(),
        kind: 'outcome',
        session,
        agent,
        tool,
        ref: id,
        result: { status: 'ok', exit_code: 0 },
        claims: claims.map((claim, k) => ({
          claim,
          result: results[k],
          ...(results[k] !== 'unverifiable'
            ? { observed: results[k] === 'matched' ? 'abc1234' : 'def5678' }
            : {}),
        })),
        prev_hash: hex(seq - 1),
        hash: hex(seq),
      };
      yield {
        doc: outcomeDoc,
        facts: {
          ...auditFacts(outcomeDoc, at + 5000),
          ref_seq: decision,
          prev_seq: null,
          filed_ms: null,
          read_ms: null,
        },
        rules: unique,
        ruleKind: 'outcome',
      };
    }
  }
}

const FACT_COLUMNS = [...DERIVED, 'ref_seq', 'prev_seq', 'filed_ms', 'read_ms'];
/** The facts columns that are not integers, with their PostgreSQL types (unnest needs one per column). */
const PG_FACT_TYPES = {
  seq: 'bigint',
  at_ms: 'bigint',
  kind: 'text',
  session: 'text',
  agent: 'text',
  tool: 'text',
  call_digest: 'text',
  outcome: 'text',
  reason: 'text',
  evidence_max_ms: 'bigint',
  evidence_min_ms: 'bigint',
  directive_ms: 'double precision',
  brier_sum: 'double precision',
  ref_seq: 'bigint',
  prev_seq: 'bigint',
  filed_ms: 'bigint',
  read_ms: 'bigint',
};
/** Seconds the SQLite seeding spent building the day rollups (part of its seeding time). */
let rollupS = 0;

async function benchSqlite(out) {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-report-bench-'));
  try {
    const file = join(dir, 'report.db');
    const { seedS, db } = await seedSqlite(file, ROWS);
    const since = NOW - 7 * DAY;
    const count = db.prepare('SELECT count(*) FROM audit_facts WHERE at_ms >= ?').pluck();
    const baseline = median(3, () => count.get(since));
    const window = count.get(since);
    db.close();

    const store = await SqliteStore.open(file);
    const report = await medianAsync(3, () => store.report({ since }));
    // SQLite runs in this process: its CPU time is the report's cost whatever else the machine runs
    // (wall time on a loaded machine is mostly waiting for a core). Median of three.
    const cpus = [];
    for (let i = 0; i < 3; i++) {
      const cpu0 = process.cpuUsage();
      await store.report({ since });
      const cpu = process.cpuUsage(cpu0);
      cpus.push((cpu.user + cpu.system) / 1000);
    }
    const cpuMs = cpus.sort((a, b) => a - b)[1];
    // What a refusal's rails add (Store.ruleHistory): the rule's fires in the last 7 days and its
    // newest mismatches, for the busiest rule of the seeded history.
    const history = await medianAsync(5, () => store.ruleHistory(RULES[0], since, 3));
    const exported = await exportAll(store);
    await store.close();
    push(out, 'SQLite', baseline, report, exported, SQLITE_TARGET_MS);
    out.push({
      name: `SQLite: one rule's history for the rails (${await historyFires(file, since)} fires in 7 days counted, newest 3 mismatches)`,
      value: history,
      unit: 'ms',
      baseline,
      ratio: history / baseline,
      target: 'report',
    });
    out.splice(out.length - 2, 0, {
      name: 'SQLite: 7-day report, CPU time of this process (median of 3)',
      value: cpuMs,
      unit: 'ms',
      target: `≤ ${SQLITE_TARGET_MS} ms`,
    });
    return { seedS, window };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A migrated SQLite store at `file` holding n seeded rows; returns the open raw handle. */
export async function seedSqlite(file, n) {
  await (await SqliteStore.open(file)).close(); // migrated, empty
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const t0 = performance.now();
  const audit = db.prepare(
    'INSERT INTO audit (seq, id, session, agent, kind, ref, at, at_ms, call_digest, hash, doc) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const facts = db.prepare(
    `INSERT INTO audit_facts (${FACT_COLUMNS.join(', ')}) VALUES (${FACT_COLUMNS.map(() => '?').join(', ')})`,
  );
  const rule = db.prepare('INSERT INTO audit_rules (seq, rule, kind, at_ms) VALUES (?, ?, ?, ?)');
  let last;
  // Bulk load: secondary indexes dropped first and built once afterwards (far faster than updating
  // them row by row); the tables, keys and indexes end exactly as the migrations made them.
  const indexes = db
    .prepare(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('audit', 'audit_facts', 'audit_rules')",
    )
    .all();
  for (const { name } of indexes) db.exec(`DROP INDEX "${name}"`);
  db.transaction(() => {
    for (const r of history(n)) {
      const d = r.doc;
      audit.run(
        d.seq,
        d.id,
        d.session,
        d.agent,
        d.kind,
        d.ref ?? null,
        d.at,
        r.facts.at_ms,
        d.call_digest ?? null,
        d.hash,
        JSON.stringify(d),
      );
      facts.run(...FACT_COLUMNS.map((c) => r.facts[c]));
      for (const id of r.rules) rule.run(d.seq, id, r.ruleKind, r.facts.at_ms);
      last = d;
    }
    db.prepare('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(last.seq, last.hash);
  })();
  for (const { sql } of indexes) db.exec(sql);
  // The day rollups, from the facts just loaded: what appends would have added up one by one.
  const t1 = performance.now();
  db.transaction(() => {
    for (const statement of ROLLUP_REBUILD_SQL) db.exec(statement);
  })();
  rollupS = (performance.now() - t1) / 1000;
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('ANALYZE');
  return { seedS: (performance.now() - t0) / 1000, db };
}

async function benchPostgres(out) {
  const schema = `tg_report_bench_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await (await PostgresStore.open(PG_URL, { schema })).close(); // migrated, empty
    const client = new pg.Client({ connectionString: PG_URL, options: `-c search_path=${schema}` });
    await client.connect();
    const since = NOW - 7 * DAY;
    let seedS;
    let baseline;
    try {
      seedS = await seedPostgres(client, schema, ROWS);
      baseline = await medianAsync(3, () =>
        client.query('SELECT count(*) FROM audit_facts WHERE at_ms >= $1', [since]),
      );
    } finally {
      // Ended before the schema is dropped: a seeding that failed inside its transaction would
      // otherwise hold the locks DROP SCHEMA waits for, and the bench would never end.
      await client.end();
    }

    const store = await PostgresStore.open(PG_URL, { schema });
    const report = await medianAsync(3, () => store.report({ since }));
    const exported = await exportAll(store);
    await store.close();
    push(out, 'PostgreSQL', baseline, report, exported, 2000);
    return { seedS };
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await admin.end();
  }
}

/** Seeds n rows into the migrated, empty schema `schema` through `client`; returns the seconds taken. */
export async function seedPostgres(client, schema, n) {
  const t0 = performance.now();
  await client.query('BEGIN');
  await client.query('SET LOCAL synchronous_commit = off');
  // Bulk load as for SQLite: secondary indexes (not those backing a key) built once at the end.
  const { rows: indexes } = await client.query(
    `SELECT i.indexname, i.indexdef FROM pg_indexes i WHERE i.schemaname = $1
       AND i.tablename IN ('audit', 'audit_facts', 'audit_rules')
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [schema],
  );
  for (const { indexname } of indexes) await client.query(`DROP INDEX "${indexname}"`);
  const BATCH = 5000;
  let batch = [];
  let last;
  const flush = async () => {
    if (batch.length === 0) return;
    const col = (f) => batch.map(f);
    await client.query(
      `INSERT INTO audit (seq, id, session, agent, kind, ref, at, at_ms, call_digest, hash, doc)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::bigint[], $9::text[], $10::text[], $11::text[])`,
      [
        col((r) => r.doc.seq),
        col((r) => r.doc.id),
        col((r) => r.doc.session),
        col((r) => r.doc.agent),
        col((r) => r.doc.kind),
        col((r) => r.doc.ref ?? null),
        col((r) => r.doc.at),
        col((r) => r.facts.at_ms),
        col((r) => r.doc.call_digest ?? null),
        col((r) => r.doc.hash),
        col((r) => JSON.stringify(r.doc)),
      ],
    );
    // Each facts column's PostgreSQL type, by name (the columns are the store's own list, in its order).
    const types = FACT_COLUMNS.map((c) => PG_FACT_TYPES[c] ?? 'integer');
    await client.query(
      `INSERT INTO audit_facts (${FACT_COLUMNS.join(', ')}) SELECT * FROM unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')})`,
      FACT_COLUMNS.map((c) => col((r) => r.facts[c])),
    );
    const ruleRows = batch.flatMap((r) => r.rules.map((id) => [r.doc.seq, id, r.ruleKind, r.facts.at_ms]));
    await client.query(
      'INSERT INTO audit_rules (seq, rule, kind, at_ms) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])',
      [0, 1, 2, 3].map((k) => ruleRows.map((row) => row[k])),
    );
    batch = [];
  };
  for (const r of history(n)) {
    batch.push(r);
    last = r.doc;
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  await client.query('UPDATE audit_head SET seq = $1, hash = $2 WHERE id = 1', [last.seq, last.hash]);
  await client.query('SET LOCAL maintenance_work_mem = "256MB"');
  for (const { indexdef } of indexes) await client.query(indexdef);
  for (const statement of ROLLUP_REBUILD_SQL) await client.query(statement);
  await client.query('COMMIT');
  await client.query('ANALYZE');
  return (performance.now() - t0) / 1000;
}

/** Every row as JSON lines into a sink that keeps nothing; rows/s and the peak RSS growth. */
async function exportAll(store) {
  globalThis.gc?.();
  const startRss = process.memoryUsage().rss;
  let peak = startRss;
  let rows = 0;
  let bytes = 0;
  const t0 = performance.now();
  for await (const page of store.exportAudit({})) {
    bytes += `${page.join('\n')}\n`.length;
    rows += page.length;
    const rss = process.memoryUsage().rss;
    if (rss > peak) peak = rss;
  }
  const s = (performance.now() - t0) / 1000;
  return { rows, bytes, perS: rows / s, growthMb: (peak - startRss) / 1_048_576 };
}

function push(out, name, baselineMs, reportMs, exported, targetMs) {
  out.push(
    { name: `${name}: baseline count(*) of the 7-day window`, value: baselineMs, unit: 'ms' },
    {
      name: `${name}: 7-day report (every figure)`,
      value: reportMs,
      unit: 'ms',
      baseline: baselineMs,
      ratio: reportMs / baselineMs,
      target: `≤ ${targetMs} ms`,
    },
    {
      name: `${name}: export, every row as JSON lines`,
      value: exported.perS,
      unit: 'rows/s',
      target: '≥ 100000',
    },
    {
      name: `${name}: export, peak RSS growth (${exported.rows.toLocaleString('en')} rows)`,
      value: exported.growthMb,
      unit: 'MiB',
      target: 'flat',
    },
  );
}

/** How many times RULES[0] fired since `since`, as the rails say it (the figure the history row names). */
async function historyFires(file, since) {
  const store = await SqliteStore.open(file);
  try {
    const history = await store.ruleHistory(RULES[0], since, 0);
    return `${history.fires_at_least ? 'at least ' : ''}${history.fires.toLocaleString('en')}`;
  } finally {
    await store.close();
  }
}

function median(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)];
}

async function medianAsync(n, fn) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)];
}
