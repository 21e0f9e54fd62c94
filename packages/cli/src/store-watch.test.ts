// A running gate whose store file is deleted or replaced under it stops deciding with the unlinked
// file: every store call fails with store_unavailable once the path names another file or none.
import { mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@tollgate/store';
import { afterAll, describe, expect, it } from 'vitest';
import { watchStoreFile } from './store-watch.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-watch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('watchStoreFile', () => {
  it('serves while the path names the opened file, then refuses once it was deleted', async () => {
    const path = join(dir, 'a.db');
    let t = 0;
    const store = watchStoreFile(await openStore(path), path, () => t);
    await expect(store.health()).resolves.toBeUndefined();
    rmSync(path);
    await expect(store.health()).resolves.toBeUndefined(); // not re-checked yet (throttled)
    t += 1000;
    await expect(store.verifyAudit()).rejects.toMatchObject({
      code: 'store_unavailable',
      message: expect.stringMatching(/was deleted while the gate was running/),
    });
    await store.close();
  });

  it('refuses once another file took the path', async () => {
    const path = join(dir, 'b.db');
    let t = 0;
    const store = watchStoreFile(await openStore(path), path, () => t);
    await (await openStore(join(dir, 'c.db'))).close();
    renameSync(join(dir, 'c.db'), path);
    t += 1000;
    await expect(store.storeId()).rejects.toMatchObject({ message: expect.stringMatching(/was replaced/) });
    await store.close();
  });
});
