import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  claimDrainLock,
  ownDrainLock,
  PENDING_MS,
  readHolder,
  releaseDrainLock,
  setHolder,
} from './drain-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-drain-lock-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const fresh = () => join(dir, `s${++n}`, 'notify-drain.lock');
const DEAD = 999_999_999;

describe('the drain lock', () => {
  it('one claim wins; a live holder keeps it; its release frees it', () => {
    const lock = fresh();
    expect(claimDrainLock(lock, 0, Date.now())).toBe(true);
    expect(claimDrainLock(lock, 0, Date.now())).toBe(false); // pending and recent
    setHolder(lock, process.pid);
    expect(claimDrainLock(lock, 0, Date.now())).toBe(false); // a live drainer
    releaseDrainLock(lock, DEAD); // not the holder: left alone
    expect(readHolder(lock)?.pid).toBe(process.pid);
    releaseDrainLock(lock, process.pid);
    expect(readHolder(lock)).toBeUndefined();
  });

  it('a dead holder, an old pending claim or garbage that is old is stale and taken over', () => {
    const dead = fresh();
    expect(claimDrainLock(dead, 0, Date.now())).toBe(true);
    setHolder(dead, DEAD);
    expect(claimDrainLock(dead, process.pid, Date.now())).toBe(true);
    expect(readHolder(dead)?.pid).toBe(process.pid);

    const pending = fresh();
    expect(claimDrainLock(pending, 0, Date.now())).toBe(true);
    expect(claimDrainLock(pending, 0, Date.now() + PENDING_MS + 1)).toBe(true);

    const garbage = fresh();
    expect(claimDrainLock(garbage, 0, Date.now())).toBe(true);
    writeFileSync(garbage, 'not a pid');
    const old = (Date.now() - PENDING_MS - 5000) / 1000;
    utimesSync(garbage, old, old);
    expect(claimDrainLock(garbage, 0, Date.now())).toBe(true);
  });

  it('a drainer owns the lock its filer named it in, or a free one; not a live other one', async () => {
    const named = fresh();
    claimDrainLock(named, 0, Date.now());
    setTimeout(() => setHolder(named, process.pid), 50);
    expect(await ownDrainLock(named, process.pid, Date.now)).toBe(true);

    const free = fresh();
    expect(await ownDrainLock(free, process.pid, Date.now)).toBe(true);
    expect(readHolder(free)?.pid).toBe(process.pid);

    const other = fresh();
    claimDrainLock(other, process.ppid, Date.now());
    expect(await ownDrainLock(other, process.pid, Date.now)).toBe(false);
  });
});
