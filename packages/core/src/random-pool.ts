// A PRNG for ulid that draws from a pooled crypto buffer: ulid's default calls getRandomValues once
// per character (16 calls per new id), which showed up as the largest single cost of an HTTP check.
import { randomFillSync } from 'node:crypto';

const POOL = 1024;

/** Returns fractions in [0, 1) from crypto-random 32-bit words, refilling the pool when it runs out. */
export function pooledRandom(): () => number {
  const pool = new Uint32Array(POOL);
  let next = POOL;
  return () => {
    if (next === POOL) {
      randomFillSync(pool);
      next = 0;
    }
    return (pool[next++] as number) / 0x1_0000_0000;
  };
}
