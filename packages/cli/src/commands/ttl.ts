// Durations on the command line: 90s, 15m, 2h, 1d (at most a day), or plain seconds.
import { UsageError } from '../errors.js';

const UNIT_S: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const MAX_S = 86400;

export function parseTtl(text: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(text.trim());
  const seconds = match ? Number(match[1]) * (UNIT_S[match[2] || 's'] as number) : Number.NaN;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_S)
    throw new UsageError(
      `--ttl ${JSON.stringify(text)} is not a duration between 1s and 24h`,
      'e.g. --ttl 15m',
    );
  return seconds;
}
