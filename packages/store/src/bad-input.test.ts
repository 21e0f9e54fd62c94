// Opening what is not a store gives a StoreFault with a code and a plain message, never a raw
// driver error: a directory, a file that is not a database, an unreachable or refusing server.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StoreFault } from './fault.js';
import { openStore } from './open-store.js';
import { PostgresStore } from './pg-store.js';
import { PG_URL } from './pg-testing.js';
import { SqliteStore } from './sqlite-store.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-bad-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function faultOf(open: Promise<unknown>): Promise<StoreFault> {
  try {
    const store = (await open) as { close(): Promise<void> };
    await store.close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreFault);
    return error as StoreFault;
  }
  throw new Error('expected the store not to open');
}

describe('opening a store on bad input', () => {
  it('a directory', async () => {
    const path = join(dir, 'a-directory');
    mkdirSync(path);
    const fault = await faultOf(openStore(path));
    expect(fault.code).toBe('store_unavailable');
    expect(fault.message).toContain(path);
  });

  it('a file that is not a database', async () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'these are not the pages you are looking for\n'.repeat(200));
    const fault = await faultOf(SqliteStore.open(path));
    expect(fault.code).toBe('store_corrupt');
  });

  it('a path under a regular file', async () => {
    const file = join(dir, 'plain');
    writeFileSync(file, 'x');
    const fault = await faultOf(openStore(join(file, 'tollgate.db')));
    expect(fault.code).toBe('store_unavailable');
  });

  it('an unreachable PostgreSQL server', async () => {
    const fault = await faultOf(openStore('postgres://postgres@127.0.0.1:1/test'));
    expect(fault.code).toBe('store_unavailable');
    expect(fault.message).toMatch(/cannot reach PostgreSQL/);
  });

  it('a PostgreSQL database that does not exist, with the password kept out of the message', async () => {
    const url = new URL(PG_URL);
    url.pathname = '/tollgate_no_such_database';
    url.password = 'hunter2';
    const fault = await faultOf(PostgresStore.open(url.toString()));
    expect(fault.code).toBe('store_unavailable');
    expect(fault.message).not.toContain('hunter2');
  });

  it('a schema name that is not a plain identifier', async () => {
    const fault = await faultOf(PostgresStore.open(PG_URL, { schema: 'x"; DROP TABLE audit; --' }));
    expect(fault.code).toBe('store_failed');
  });
});
