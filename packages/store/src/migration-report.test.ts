// Migration 0004 on a store written before it: the report tables are rebuilt from every row's doc,
// and the report over the backfilled tables equals the one the appends wrote.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Sqlite from 'better-sqlite3';
import { afterAll, expect, it } from 'vitest';
import { seedHistory } from './report-history.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-backfill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('backfills audit_facts and audit_rules from the stored docs', async () => {
  const file = join(dir, 'old.db');
  const store = await SqliteStore.open(file);
  await seedHistory(store);
  const before = await store.report({ by: 'session' });
  await store.close();

  // As the release before 0004 left it: no report tables, the migration not yet run.
  const raw = new Sqlite(file);
  raw.exec(
    "DROP TABLE audit_facts; DROP TABLE audit_rules; DELETE FROM kysely_migration WHERE name IN ('0004_report_facts', '0007_report_indexes')",
  );
  raw.pragma('user_version = 2');
  raw.close();

  const upgraded = await SqliteStore.open(file);
  expect(await upgraded.report({ by: 'session' })).toEqual(before);
  expect(await upgraded.verifyAudit()).toEqual({ ok: true, rows: 17 });
  await upgraded.close();
});

it('0011 replaces audit_rules_by_at with the covering audit_rules_window, figures unchanged', async () => {
  const file = join(dir, 'before-0011.db');
  const store = await SqliteStore.open(file);
  await seedHistory(store);
  const before = await store.report({ by: 'rule' });
  await store.close();

  // As the release before 0011 left it: the narrow rule index, the migration not yet run.
  const raw = new Sqlite(file);
  raw.exec(
    "DROP INDEX audit_rules_window; CREATE INDEX audit_rules_by_at ON audit_rules (at_ms); DELETE FROM kysely_migration WHERE name = '0011_report_covering'",
  );
  raw.pragma('user_version = 9');
  raw.close();

  const upgraded = await SqliteStore.open(file);
  expect(await upgraded.report({ by: 'rule' })).toEqual(before);
  expect(await upgraded.verifyAudit()).toEqual({ ok: true, rows: 17 });
  await upgraded.close();
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
