// The request rate limit per token (limits.http_rate): a token bucket per agent the bearer token
// names (one shared bucket in open mode), refilled continuously at `per_s` requests a second up to
// `burst`. A request finding its bucket empty gets 429 with Retry-After: the seconds until one
// request's worth has refilled. Buckets live in this process: each instance limits on its own.
import type { Clock } from '@tollgate/core';

export interface HttpRate {
  /** Requests a second a token may send, sustained. */
  per_s: number;
  /** Requests a token may send at once after a quiet spell (default: one second's worth). */
  burst?: number;
}

export type Admission = { ok: true } | { ok: false; retryAfterS: number };

export interface RateLimiter {
  take(key: string): Admission;
}

export function rateLimiter(rate: HttpRate, clock: Clock): RateLimiter {
  const burst = Math.max(1, rate.burst ?? Math.ceil(rate.per_s));
  const perMs = rate.per_s / 1000;
  // Keys are agents from the configured tokens (or the one open key): the map is bounded by the config.
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key) {
      const now = clock.now();
      const bucket = buckets.get(key) ?? { tokens: burst, at: now };
      bucket.tokens = Math.min(burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
      bucket.at = now;
      buckets.set(key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterS: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)) };
    },
  };
}
