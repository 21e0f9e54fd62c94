// A pinned store is never recreated silently: missing or replaced → store_unavailable (which every
// adapter turns into gate_unavailable), and nothing appears on disk. The default store lives under the
// state directory; a legacy .tollgate/tollgate.db is used only while it is the project's store.
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '@tollgate/store';
import { afterAll, describe, expect, it } from 'vitest';
import { findConfig, storeTarget } from './runtime.js';
import { canonicalPath, projectKey } from './state.js';
import { openPinnedStore, pinFile, readPin } from './store-pin.js';

const root = mkdtempSync(join(tmpdir(), 'tollgate-pin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function scratch() {
  const dir = join(root, `case-${n++}`);
  mkdirSync(dir, { recursive: true });
  const env = { TOLLGATE_STATE_DIR: join(dir, 'state') };
  return { dir, env, db: join(dir, 'db', 'tollgate.db') };
}

describe('openPinnedStore', () => {
  it('pins a store on first use and opens it again while it is the same store', async () => {
    const { env, db } = scratch();
    const first = await openPinnedStore(db, env);
    const id = await first.storeId();
    await first.close();
    expect(readPin(env.TOLLGATE_STATE_DIR, db)).toMatchObject({ path: canonicalPath(db), store_id: id });
    const again = await openPinnedStore(db, env);
    expect(await again.storeId()).toBe(id);
    await again.close();
  });

  it('refuses a pinned store that vanished, and creates nothing', async () => {
    const { env, db } = scratch();
    await (await openPinnedStore(db, env)).close();
    rmSync(join(db, '..'), { recursive: true, force: true });
    await expect(openPinnedStore(db, env)).rejects.toMatchObject({
      name: 'TollgateFault',
      code: 'store_unavailable',
      message: expect.stringMatching(/has vanished.*tollgate store reset/),
    });
    expect(existsSync(db)).toBe(false);
  });

  it('refuses a store replaced by a fresh one at the same path', async () => {
    const { env, db } = scratch();
    await (await openPinnedStore(db, env)).close();
    for (const f of ['', '-wal', '-shm']) rmSync(`${db}${f}`, { force: true });
    await (await openStore(db)).close(); // a fresh store, with its own id
    await expect(openPinnedStore(db, env)).rejects.toMatchObject({
      code: 'store_unavailable',
      message: expect.stringMatching(/was replaced/),
    });
  });

  it('finds the pin whichever way the path is spelled', async () => {
    const { dir, env, db } = scratch();
    await (await openPinnedStore(db, env)).close();
    symlinkSync(join(dir, 'db'), join(dir, 'alias'));
    rmSync(db);
    await expect(openPinnedStore(join(dir, 'alias', 'tollgate.db'), env)).rejects.toMatchObject({
      code: 'store_unavailable',
    });
  });

  it('checks TOLLGATE_STORE_ID even without a pin, and refuses a damaged pin', async () => {
    const { env, db } = scratch();
    await expect(openPinnedStore(db, { ...env, TOLLGATE_STORE_ID: 'f'.repeat(32) })).rejects.toMatchObject({
      code: 'store_unavailable',
      message: expect.stringMatching(/vanished/),
    });
    await (await openStore(db)).close();
    await expect(openPinnedStore(db, { ...env, TOLLGATE_STORE_ID: 'f'.repeat(32) })).rejects.toMatchObject({
      message: expect.stringMatching(/replaced/),
    });
    mkdirSync(join(env.TOLLGATE_STATE_DIR, 'pins'), { recursive: true });
    writeFileSync(pinFile(env.TOLLGATE_STATE_DIR, db), '{"path":');
    await expect(openPinnedStore(db, env)).rejects.toMatchObject({
      message: expect.stringMatching(/damaged/),
    });
  });
});

describe('the default store', () => {
  it('lives under the state directory, keyed by the project root (the .git directory upward)', () => {
    const { dir, env } = scratch();
    mkdirSync(join(dir, 'repo', '.git'), { recursive: true });
    mkdirSync(join(dir, 'repo', 'src', 'deep'), { recursive: true });
    const loaded = findConfig(join(dir, 'repo', 'src', 'deep'), env);
    expect(loaded.root).toBe(join(dir, 'repo'));
    expect(storeTarget(loaded, env)).toBe(
      join(canonicalPath(env.TOLLGATE_STATE_DIR), projectKey(join(dir, 'repo')), 'tollgate.db'),
    );
    expect(projectKey(join(dir, 'repo'))).toMatch(/^repo-[0-9a-f]{12}$/);
  });

  it('keeps an existing legacy .tollgate/tollgate.db, but a legacy file made later cannot take over', async () => {
    const { dir, env } = scratch();
    const legacy = join(dir, 'old', '.tollgate', 'tollgate.db');
    mkdirSync(join(dir, 'old', '.git'), { recursive: true });
    await (await openStore(legacy)).close();
    expect(storeTarget(findConfig(join(dir, 'old'), env), env)).toBe(legacy);

    mkdirSync(join(dir, 'new', '.git'), { recursive: true });
    const loaded = findConfig(join(dir, 'new'), env);
    const current = storeTarget(loaded, env);
    await (await openPinnedStore(current, env)).close();
    await (await openStore(join(dir, 'new', '.tollgate', 'tollgate.db'))).close();
    expect(storeTarget(loaded, env)).toBe(current);
  });
});
