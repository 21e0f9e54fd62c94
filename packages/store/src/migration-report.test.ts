// Migrations 0004, 0011 and 0013 on a store written before them: the report tables are rebuilt from
// every row's doc (0004), the rule index made covering (0011), the day rollups built from the facts
// (0013), and the report equals the one the appends wrote.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { seedHistory, seedPerfunctory } from './report-history.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-backfill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A seeded store taken back to an older release (`undo`, run on the raw file, with its user_version),
 * then reopened: the migrations run again, the report equals the one before, and the chain verifies.
 */
async function upgradeFrom(
  name: string,
  undo: string,
  version: number,
  by: 'session' | 'rule' | 'agent',
  perfunctory = false,
): Promise<string> {
  const file = join(dir, name);
  const store = await SqliteStore.open(file);
  await seedHistory(store);
  if (perfunctory) await seedPerfunctory(store);
  const before = await store.report({ by });
  await store.close();
  const raw = new Sqlite(file);
  raw.exec(undo);
  raw.pragma(`user_version = ${version}`);
  raw.close();
  const upgraded = await SqliteStore.open(file);
  expect(await upgraded.report({ by })).toEqual(before);
  expect(await upgraded.verifyAudit()).toEqual({ ok: true, rows: perfunctory ? 28 : 17 });
  await upgraded.close();
  return file;
}

it('backfills audit_facts and audit_rules from the stored docs', async () => {
  // As the release before 0004 left it: no report tables, the migration not yet run.
  await upgradeFrom(
    'old.db',
    "DROP TABLE audit_facts; DROP TABLE audit_rules; DROP INDEX observations_by_time; DELETE FROM kysely_migration WHERE name IN ('0004_report_facts', '0007_report_indexes', '0012_facts_queryable', '0012_report_perfunctory')",
    2,
    'session',
  );
});

it('0011 replaces audit_rules_by_at with the covering audit_rules_window, figures unchanged', async () => {
  // As the release before 0011 left it: the narrow rule index, the migration not yet run.
  const file = await upgradeFrom(
    'before-0011.db',
    "DROP INDEX audit_rules_window; CREATE INDEX audit_rules_by_at ON audit_rules (at_ms); DELETE FROM kysely_migration WHERE name = '0011_report_covering'",
    9,
    'rule',
  );
  const check = new Sqlite(file, { readonly: true });
  const indexes = check
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'audit_rules' AND sql IS NOT NULL",
    )
    .pluck()
    .all();
  expect(indexes.sort()).toEqual(['audit_rules_by_rule', 'audit_rules_window']);
  check.close();
});

it('0013 builds the day rollups from the facts of a store written before them, figures unchanged', async () => {
  // As the release before 0013 left it: no rollups, the migration not yet run.
  const file = await upgradeFrom(
    'before-0013.db',
    "DROP TABLE audit_rollup; DELETE FROM kysely_migration WHERE name = '0013_report_rollups'",
    11,
    'agent',
  );
  const check = new Sqlite(file, { readonly: true });
  // Counted by hand from report-history.ts: the rows make 4 + 4 + 3 (day, agent, tool, first reason)
  // keys on days 0, 1 and 2; with each rule they name, 4 + 6 + 3 (row 9 and 10 name both rules).
  const rows = check.prepare("SELECT rule = '' AS total, count(*) AS n FROM audit_rollup GROUP BY 1").all();
  expect(rows).toEqual([
    { total: 0, n: 13 },
    { total: 1, n: 11 },
  ]);
  check.close();
});

it('0012_facts_queryable adds queryable_unread to a store that ran 0013 and 0014; its reports stay as they were', async () => {
  // Added after 0014: a store from the release before has every other table and rollups counted by
  // the approximate flag, which older declines (null here) keep.
  const file = await upgradeFrom(
    'before-queryable.db',
    `ALTER TABLE audit_facts DROP COLUMN queryable_unread;
     DELETE FROM kysely_migration WHERE name = '0012_facts_queryable'`,
    14,
    'rule',
    true,
  );
  const check = new Sqlite(file, { readonly: true });
  expect(
    check.prepare('SELECT count(*) FROM audit_facts WHERE queryable_unread IS NOT NULL').pluck().get(),
  ).toBe(0);
  check.close();
});

it('0012_report_perfunctory backfills filed_ms, read_ms and unaccepted and recounts the rollups', async () => {
  // As the release before it left it: no such columns or index, and rollups whose flag counts
  // followed the earlier perfunctory flag (here: none raised).
  const file = await upgradeFrom(
    'before-perfunctory.db',
    `ALTER TABLE audit_facts DROP COLUMN unaccepted; ALTER TABLE audit_facts DROP COLUMN filed_ms;
     ALTER TABLE audit_facts DROP COLUMN read_ms; DROP INDEX observations_by_time;
     UPDATE audit_rollup SET flag_p = 0;
     DELETE FROM kysely_migration WHERE name = '0012_report_perfunctory'`,
    13,
    'rule',
    true,
  );
  const check = new Sqlite(file, { readonly: true });
  // Case 1 of seedPerfunctory: filed when its ticket was (4 s after the refusal), the older read.
  const row = check
    .prepare(
      "SELECT f.filed_ms - r.at_ms AS gap, f.read_ms < r.at_ms AS older FROM audit_facts f JOIN audit_facts r ON r.seq = f.prev_seq WHERE f.session = 'p1' AND f.outcome = 'dispatch'",
    )
    .get();
  expect(row).toEqual({ gap: 4000, older: 1 });
  expect(check.prepare('SELECT count(*) FROM audit_facts WHERE unaccepted = 1').pluck().get()).toBe(1);
  check.close();
});

it('the per-rule view reads the window of audit_rules_window alone, with or without statistics', async () => {
  const file = join(dir, 'plan.db');
  await (await SqliteStore.open(file)).close();
  const raw = new Sqlite(file);
  // 30 days of rule rows over 40 rules (raw rows: only the plan is looked at here).
  const day = 86_400_000;
  const insert = raw.prepare('INSERT INTO audit_rules (seq, rule, kind, at_ms) VALUES (?, ?, ?, ?)');
  raw.transaction(() => {
    for (let i = 1; i <= 20_000; i++)
      insert.run(i, `rule.${i % 40}`, 'decision', Math.floor((i / 20_000) * 30 * day));
  })();
  // The statement of report-sql.ts sumsByRule, reduced to its shape: window, join, grouping key.
  const perRule = `EXPLAIN QUERY PLAN SELECT r.rule || '' AS k, count(*), sum(f.matched)
    FROM audit_rules r CROSS JOIN audit_facts f
    WHERE (1 = 1 AND r.at_ms >= ?) AND f.seq = r.seq AND f.at_ms >= ? GROUP BY 1`;
  const plan = () =>
    raw
      .prepare(perRule)
      .all(23 * day, 23 * day)
      .map((r) => (r as { detail: string }).detail);
  const covering = 'SEARCH r USING COVERING INDEX audit_rules_window (at_ms>?)';
  expect(plan()).toContain(covering);
  raw.exec('ANALYZE');
  expect(plan()).toContain(covering);
  raw.close();
});

it('the newest mismatches are read from audit_facts_mismatched, with or without statistics', async () => {
  const file = join(dir, 'mismatch-plan.db');
  await (await SqliteStore.open(file)).close();
  const raw = new Sqlite(file);
  const day = 86_400_000;
  const insert = raw.prepare(
    `INSERT INTO audit_facts (seq, at_ms, kind, session, gated, dry_run, would_reject, escalated, overridden,
       predicted, matched, mismatched, unverifiable, brier_n) VALUES (?, ?, ?, 's', ?, 0, 0, 0, 0, 0, 0, ?, 0, 0)`,
  );
  // 30 days of rows, one in ten an outcome, one outcome in ten with a mismatch.
  raw.transaction(() => {
    for (let i = 1; i <= 20_000; i++) {
      const outcome = i % 10 === 0;
      insert.run(
        i,
        Math.floor((i / 20_000) * 30 * day),
        outcome ? 'outcome' : 'decision',
        outcome ? 0 : 1,
        outcome && i % 100 === 0 ? 1 : 0,
      );
    }
  })();
  // The statement of report-sql.ts mismatches, as it reads with a since.
  const plan = () =>
    raw
      .prepare(
        `EXPLAIN QUERY PLAN SELECT f.seq FROM audit_facts f WHERE (f.kind IN ('decision', 'outcome') AND f.at_ms >= ?)
         AND f.kind = 'outcome' AND f.mismatched > 0 ORDER BY f.seq DESC LIMIT 20`,
      )
      .all(23 * day)
      .map((r) => (r as { detail: string }).detail);
  const partial = 'SEARCH f USING INDEX audit_facts_mismatched (at_ms>?)';
  expect(plan()).toContain(partial);
  raw.exec('ANALYZE');
  expect(plan()).toContain(partial);
  raw.close();

  // A file analysed before 0014 ran: the migration measures its index too.
  const older = join(dir, 'mismatch-stats.db');
  await (await SqliteStore.open(older)).close();
  const before = new Sqlite(older);
  before.exec(
    `ATTACH '${file}' AS src; INSERT INTO audit_facts SELECT * FROM src.audit_facts; DETACH src;
     DROP INDEX audit_facts_mismatched; ANALYZE;
     DELETE FROM kysely_migration WHERE name = '0014_report_mismatch_index'`,
  );
  before.pragma('user_version = 13');
  before.close();
  await (await SqliteStore.open(older)).close();
  const after = new Sqlite(older);
  const stat = after
    .prepare("SELECT count(*) FROM sqlite_stat1 WHERE idx = 'audit_facts_mismatched'")
    .pluck();
  expect(stat.get()).toBe(1);
  after.close();
});
