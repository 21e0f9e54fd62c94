// The day rollups against the raw rows, on SQLite and PostgreSQL: over the seeded history (plus rows
// whose agent or tool is '' beside rows without one), every report — whole days, partial edge days on
// either side, windows inside one day, each filter and grouping — equals the report computed from the
// raw rows alone; and the rollups the appends kept equal the ones rebuilt from the facts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditDraft, ReportQuery, Store } from '@tollgate/core';
import Sqlite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ROLLUP_REBUILD_SQL } from './audit-rollup.js';
import { hex64, newId } from './fixtures.js';
import { PostgresStore } from './pg-store.js';
import { dropSchema, freshSchemaName, PG_URL, sideClient } from './pg-testing.js';
import { DAY, DROP, FORCE, seedHistory, seedPerfunctory, T0, T5 } from './report-history.js';
import { reportQuery } from './report-sql.js';
import type { Database } from './schema.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-rollup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The seeded history, rows telling an empty agent or tool from none on days 2 and 3, and the
 * perfunctory cases of day 5.
 */
async function seed(store: Store): Promise<void> {
  await seedHistory(store);
  await seedPerfunctory(store);
  const base = { kind: 'decision', session: 's9', mode: 'enforce' } as const;
  const at = (ms: number) => new Date(ms).toISOString();
  const drafts: AuditDraft[] = [
    { ...base, id: newId(), at: at(T0 + 2 * DAY + 5000), agent: '', tool: '', outcome: 'pass', rules: [] },
    {
      ...base,
      id: newId(),
      at: at(T0 + 2 * DAY + 6000),
      agent: '',
      tool: 'shell',
      call_digest: hex64('E1'),
      outcome: 'rejected',
      rules: [FORCE],
      reasons: [''],
    },
    {
      ...base,
      id: newId(),
      at: at(T0 + 3 * DAY + 7000),
      tool: '',
      call_digest: hex64('E2'),
      outcome: 'rejected',
      rules: [DROP],
      reasons: ['evidence_stale'],
    },
  ];
  await store.appendAudit(drafts);
}

// Window edges: before the history, on a day's first millisecond, inside a day, on its last.
const EDGES = [
  undefined,
  T0 - DAY,
  T0,
  T0 + 5000,
  T0 + DAY - 1,
  T0 + DAY,
  T0 + DAY + 100_000,
  T0 + 2 * DAY,
  T0 + 2 * DAY + 5500,
  T0 + 3 * DAY + 7000,
  T0 + 4 * DAY,
  T5 + 150_000,
];
const FILTERS: ReportQuery[] = [
  {},
  { agent: 'alice' },
  { agent: '' },
  { tool: '' },
  { tool: 'deploy', by: 'agent' },
  { rule: FORCE },
  { rule: DROP, agent: 'bob', by: 'rule' },
  { by: 'tool' },
  { by: 'session' },
  { by: 'day' },
];

function queries(): ReportQuery[] {
  const out: ReportQuery[] = [];
  for (const since of EDGES)
    for (const until of EDGES) {
      if (since !== undefined && until !== undefined && until <= since) continue;
      for (const f of FILTERS) {
        const q: ReportQuery = { ...f };
        if (since !== undefined) q.since = since;
        if (until !== undefined) q.until = until;
        out.push(q);
      }
    }
  return out;
}

async function compareAll(db: Kysely<Database>): Promise<void> {
  let compared = 0;
  for (const q of queries()) {
    const [fromRollups, fromRows] = await Promise.all([reportQuery(db, q), reportQuery(db, q, false)]);
    expect({ q, report: fromRollups }).toEqual({ q, report: fromRows });
    compared++;
  }
  expect(compared).toBe(780);
}

type Row = Record<string, unknown>;

/** The rollup table as the appends left it, and as rebuilt from the facts; they must be equal. */
async function rebuiltEqual(all: () => Promise<Row[]>, exec: (sql: string) => Promise<void>): Promise<void> {
  const kept = await all();
  expect(kept.length).toBeGreaterThan(20);
  await exec('DELETE FROM audit_rollup');
  for (const statement of ROLLUP_REBUILD_SQL) await exec(statement);
  expect(await all()).toEqual(kept);
}

const ORDERED = 'SELECT * FROM audit_rollup ORDER BY day, rule, agent, tool, reason';

describe('day rollups, SQLite', () => {
  it('every report equals the one from raw rows; appended rollups equal rebuilt ones', async () => {
    const file = join(dir, 'rollup.db');
    const store = await SqliteStore.open(file);
    await seed(store);
    await compareAll(await store.kysely());
    const raw = new Sqlite(file);
    await rebuiltEqual(
      async () => raw.prepare(ORDERED).all() as Row[],
      async (sql) => {
        raw.exec(sql);
      },
    );
    raw.close();
    await store.close();
  }, 120_000);
});

describe('day rollups, PostgreSQL', () => {
  it('every report equals the one from raw rows; appended rollups equal rebuilt ones', async () => {
    const schema = freshSchemaName();
    const store = await PostgresStore.open(PG_URL, { schema });
    const side = await sideClient(schema);
    try {
      await seed(store);
      await compareAll(store.kysely);
      await rebuiltEqual(
        async () => (await side.query(ORDERED)).rows as Row[],
        async (sql) => {
          await side.query(sql);
        },
      );
    } finally {
      await side.end();
      await store.close();
      await dropSchema(schema);
    }
  }, 120_000);

  it('migration 0013 builds them for a schema written before it, figures unchanged', async () => {
    const schema = freshSchemaName();
    const store = await PostgresStore.open(PG_URL, { schema });
    const side = await sideClient(schema);
    try {
      await seed(store);
      const before = await store.report({ by: 'rule' });
      await store.close();
      // As the release before 0013 left it: no rollups, the migration not yet run.
      await side.query(
        "DROP TABLE audit_rollup; DELETE FROM kysely_migration WHERE name = '0013_report_rollups'",
      );
      const upgraded = await PostgresStore.open(PG_URL, { schema });
      expect(await upgraded.report({ by: 'rule' })).toEqual(before);
      // The history's 24 keys (see migration-report.test.ts), 3 + 2 for the rows seed() adds, and
      // day 5's: agent carol, shell, under FORCE, first reason prediction_missing, none,
      // evidence_not_accepted or evidence_stale — 4 for the rows and 4 with the rule.
      expect((await side.query('SELECT count(*)::int AS n FROM audit_rollup')).rows).toEqual([{ n: 37 }]);
      await upgraded.close();
    } finally {
      await side.end();
      await dropSchema(schema);
    }
  }, 60_000);
});
