// Shared measurement helpers for the benches: per-call timings in microseconds and percentiles.
export function percentile(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

/**
 * Runs fn n times (after `warmup` runs) and returns sorted durations in µs. `before(i)`, when given,
 * runs ahead of each call outside the timing (an agent's read before its next call, say).
 */
export async function timeEach(n, fn, warmup = Math.min(200, n), before = undefined) {
  for (let i = 0; i < warmup; i++) {
    await before?.(i);
    await fn(i);
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    await before?.(i + warmup);
    const t0 = process.hrtime.bigint();
    await fn(i + warmup);
    out[i] = Number(process.hrtime.bigint() - t0) / 1000;
  }
  return Array.from(out).sort((a, b) => a - b);
}

export function summary(sorted) {
  const mean = sorted.reduce((a, b) => a + b, 0) / sorted.length;
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), mean };
}
