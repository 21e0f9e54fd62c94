// The benchmark harness (npm run bench): imports every bench/*.bench.mjs, runs them one after
// another, and prints each as a table whose ratios compare against a baseline measured in the same
// run. `node bench/run.mjs core hook` runs only the named ones; `--quick` (or BENCH_QUICK=1) runs
// every bench with few iterations, to prove that each still works (.ci/run does).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { QUICK } from './mode.mjs';

const dir = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.mjs'))
  .filter((f) => only.length === 0 || only.includes(f.replace('.bench.mjs', '')))
  .sort();

const fmt = (v) =>
  typeof v === 'number' ? (Math.abs(v) >= 100 ? v.toFixed(0) : v.toPrecision(3)) : (v ?? '');

console.log(
  `Tollgate benchmarks — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${process.platform}/${process.arch}${QUICK ? ' — QUICK MODE: proves the benches run; the figures mean nothing' : ''}`,
);
let failed = false;
for (const file of files) {
  const mod = await import(join(dir, file));
  let result;
  try {
    result = await mod.run();
  } catch (error) {
    failed = true;
    console.log(`\n## ${file}: failed — ${error instanceof Error ? error.stack : error}`);
    continue;
  }
  console.log(`\n## ${result.title}\n`);
  console.log('| measure | value | unit | baseline | ratio | target |');
  console.log('|---|---|---|---|---|---|');
  for (const row of result.rows) {
    console.log(
      `| ${row.name} | ${fmt(row.value)} | ${row.unit ?? ''} | ${fmt(row.baseline)} | ${row.ratio === undefined ? '' : `${fmt(row.ratio)}×`} | ${row.target ?? ''} |`,
    );
  }
  for (const note of result.notes ?? []) console.log(`\n${note}`);
}
process.exitCode = failed ? 1 : 0;
