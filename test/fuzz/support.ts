// Fuzzing support: every property runs with one fixed seed (FUZZ_SEED overrides it) and a bounded
// count in the README's test command; FUZZ_RUNS (npm run fuzz) multiplies the counts for long runs.
// A failure throws fast-check's report, which carries the seed and the path to replay it; each run's
// cases and failures are appended to FUZZ_REPORT (a JSON-lines file) for scripts/fuzz.mjs to total.
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import { FORBIDDEN } from '../../packages/core/src/testing/forbidden.js';

// biome-ignore-start lint/suspicious/noUndeclaredEnvVars: test-only knobs, read by no turbo task.
export const SEED = Number(process.env.FUZZ_SEED ?? 20_261_122);
const SCALE = Number(process.env.FUZZ_RUNS ?? 0) > 0 ? Number(process.env.FUZZ_RUNS) / 100 : 1;
const REPORT = process.env.FUZZ_REPORT;
// biome-ignore-end lint/suspicious/noUndeclaredEnvVars: as above.

/** The bounded count of a property in CI, scaled up for long runs (FUZZ_RUNS=100 is the CI count). */
export function runs(ci: number): number {
  return Math.max(1, Math.round(ci * SCALE));
}

/** Runs a property with the fixed seed; throws fast-check's report (seed, path, counterexample) on failure. */
export async function holds<T>(
  name: string,
  property: fc.IAsyncPropertyWithHooks<T> | fc.IPropertyWithHooks<T>,
  ci: number,
): Promise<void> {
  const details = await fc.check(property as fc.IAsyncProperty<T>, { seed: SEED, numRuns: runs(ci) });
  if (REPORT) {
    const line = { name, cases: details.numRuns, failed: details.failed, seed: SEED };
    appendFileSync(REPORT, `${JSON.stringify(line)}\n`);
  }
  if (details.failed) {
    const cause =
      details.errorInstance instanceof Error ? details.errorInstance.message : details.errorInstance;
    throw new Error(
      `${name}: ${fc.defaultReportMessage(details) ?? 'failed'}\n${String(cause).slice(0, 2000)}`,
    );
  }
}

export { FORBIDDEN };

/** Every string anywhere in a JSON-like value (keys too), for checking outgoing texts. */
export function stringsIn(value: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 64) return out;
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) stringsIn(v, out, depth + 1);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      stringsIn(v, out, depth + 1);
    }
  }
  return out;
}

/** The first string in `value` holding a forbidden character, or undefined. */
export function forbiddenIn(value: unknown): string | undefined {
  return stringsIn(value).find((s) => FORBIDDEN.test(s));
}

/** Text units that break naive renderers: escapes, separators, bidi, lone surrogates, quotes. */
export const NASTY_UNITS = [
  '\u001b[31m',
  '\u001b]0;x\u0007',
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0085',
  '\u009b',
  '\u2028',
  '\u2029',
  '\u202e',
  '\u2066',
  '\u200f',
  '\ufeff',
  '\u{e0041}',
  '\ud800',
  '"',
  "'",
  '\\',
  '$',
  '`',
  ';',
  '|',
  '😀',
  'a',
  ' ',
];

export const nastyString = (maxLength = 24) =>
  fc.string({ unit: fc.constantFrom(...NASTY_UNITS), maxLength });

/** Strings a call or document field may hold: plain, nasty, or anything. */
export const anyText = fc.oneof(
  fc.string({ maxLength: 20 }),
  nastyString(),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  fc.constantFrom('', 'git push --force origin main', 'rm -rf /', '/etc/passwd', 'release_status'),
);

/** JSON values with nasty strings in them, bounded in size. */
export const nastyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    anyText,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(anyText, tie('value'), { maxKeys: 4 }),
  ),
})).value;
