// npm run fuzz: every fuzz property in test/fuzz for a long run — FUZZ_RUNS (default 2000, i.e. 20×
// the bounded counts the README's test command runs) with a fresh seed each time unless FUZZ_SEED is
// given — then the cases run and the failures found per property. A failure prints fast-check's
// report with the seed and path that replay it: FUZZ_SEED=<seed> FUZZ_RUNS=<n> npm run fuzz.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// biome-ignore-start lint/suspicious/noUndeclaredEnvVars: read by this script only, never by a turbo task.
const runs = process.env.FUZZ_RUNS ?? '2000';
const seed = process.env.FUZZ_SEED ?? String(Math.floor(Math.random() * 2 ** 31));
// biome-ignore-end lint/suspicious/noUndeclaredEnvVars: as above.
const dir = mkdtempSync(join(tmpdir(), 'tollgate-fuzz-'));
const report = join(dir, 'report.jsonl');
console.log(`fuzz: FUZZ_RUNS=${runs} FUZZ_SEED=${seed}`);
const started = Date.now();
// A long run outlasts the end-to-end project's 60 s test timeout: an hour per test instead.
const vitest = ['vitest', 'run', '--project', 'e2e', 'test/fuzz', '--testTimeout=3600000'];
const run = spawnSync('npx', [...vitest, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: runs, FUZZ_SEED: seed, FUZZ_REPORT: report },
});
const lines = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n').filter(Boolean) : [];
const rows = lines.map((l) => JSON.parse(l));
rmSync(dir, { recursive: true, force: true });
console.log('\n| property | cases | failed |\n|---|---|---|');
for (const r of rows) console.log(`| ${r.name} | ${r.cases} | ${r.failed ? 'yes' : 'no'} |`);
const cases = rows.reduce((n, r) => n + r.cases, 0);
const failed = rows.filter((r) => r.failed).length;
console.log(
  `\n${rows.length} properties, ${cases.toLocaleString('en')} cases, ${failed} failing, seed ${seed}, ${Math.round((Date.now() - started) / 1000)} s`,
);
process.exitCode = run.status ?? 1;
