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
