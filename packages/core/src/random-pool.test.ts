// The pooled PRNG: fractions in [0, 1), spread over the range, and new values across refills.
import { monotonicFactory } from 'ulid';
import { expect, test } from 'vitest';
import { pooledRandom } from './random-pool.js';

test('fractions in [0, 1), roughly uniform, across several refills', () => {
  const prng = pooledRandom();
  const buckets = new Array(10).fill(0);
  for (let i = 0; i < 5000; i++) {
    const x = prng();
    expect(x).toBeGreaterThanOrEqual(0);
    expect(x).toBeLessThan(1);
    buckets[Math.floor(x * 10)]++;
  }
  for (const count of buckets) expect(count).toBeGreaterThan(350);
});

test('ulid ids from it are well-formed, unique and ordered', () => {
  const next = monotonicFactory(pooledRandom());
  const ids = Array.from({ length: 3000 }, (_, i) => next(1_800_000_000_000 + Math.floor(i / 100)));
  for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  expect(new Set(ids).size).toBe(ids.length);
  expect([...ids].sort()).toEqual(ids);
});
