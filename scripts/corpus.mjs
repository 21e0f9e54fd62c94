// npm run corpus: streams the development corpus (../shared/corpus/shell-dev.jsonl, outside data that
// is never copied into this repository) through `tollgate classify --batch`, prints per-category
// figures and every row classified against its label, and exits 1 unless at least 98% of the
// `block` rows are gated and at most 2% of the `allow` rows are (rows listed in
// contracts/policies/shell-corpus-exceptions.yaml, by sha-256, do not count).
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const corpusPath = resolve(root, '..', 'shared', 'corpus', 'shell-dev.jsonl');
const exceptionsPath = join(root, 'contracts', 'policies', 'shell-corpus-exceptions.yaml');
const cli = join(root, 'packages', 'cli', 'bin', 'tollgate.js');
const MIN_BLOCK_GATED = 0.98;
const MAX_ALLOW_GATED = 0.02;
const MAX_EXCEPTIONS = 40;

if (!existsSync(corpusPath)) {
  console.log(`corpus: ${corpusPath} is absent; nothing to evaluate`);
  process.exit(0);
}

const rows = readFileSync(corpusPath, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));
const exceptions = loadExceptions();
const results = await classifyAll(rows.map((r) => r.command));

const byCategory = new Map();
const wrong = [];
let blockTotal = 0;
let blockGated = 0;
let allowCounted = 0;
let allowGated = 0;
let excepted = 0;
const usedExceptions = new Set();
/** Exceptions whose row now passes: the list should shrink by them. */
const unneeded = [];
for (const [i, row] of rows.entries()) {
  const result = results[i];
  const gated = result.gated === true || result.irreversible === true || result.class === 'unknown-dynamic';
  const digest = sha256(row.command);
  const cat = byCategory.get(row.category) ?? { block: 0, blockGated: 0, allow: 0, allowGated: 0 };
  byCategory.set(row.category, cat);
  if (row.expect === 'block') {
    blockTotal++;
    cat.block++;
    if (gated) {
      blockGated++;
      cat.blockGated++;
    } else wrong.push({ kind: 'missed', row, result });
  } else {
    cat.allow++;
    if (exceptions.has(digest)) {
      usedExceptions.add(digest);
      excepted++;
      if (gated) cat.allowGated++;
      else unneeded.push(digest);
      continue;
    }
    allowCounted++;
    if (gated) {
      allowGated++;
      cat.allowGated++;
      wrong.push({ kind: 'over-gated', row, result });
    }
  }
}

console.log('category            block gated      allow gated');
for (const [name, c] of [...byCategory].sort(([a], [b]) => a.localeCompare(b))) {
  const block = c.block ? `${c.blockGated}/${c.block}` : '-';
  const allow = c.allow ? `${c.allowGated}/${c.allow}` : '-';
  console.log(`${name.padEnd(18)}  ${block.padStart(11)}  ${allow.padStart(15)}`);
}
if (wrong.length > 0) console.log('\nrows classified against their label:');
for (const { kind, row, result } of wrong) {
  const text = JSON.stringify(row.command);
  const shown = text.length > 160 ? `${text.slice(0, 157)}...` : text;
  console.log(
    `  ${kind.padEnd(10)} [${row.category}] ${shown}  -> ${result.class} ${(result.rules ?? []).join(',')}`,
  );
}
const stale = [...exceptions.keys()].filter((d) => !usedExceptions.has(d));
if (stale.length > 0)
  console.log(`\n${stale.length} exception(s) match no allow row of the corpus: ${stale.join(', ')}`);

if (unneeded.length > 0)
  console.log(
    `\n${unneeded.length} exception(s) no longer needed (their row passes): ${unneeded.join(', ')}`,
  );

const blockRate = blockGated / blockTotal;
const allowRate = allowCounted === 0 ? 0 : allowGated / allowCounted;
console.log(
  `\nblock rows gated: ${blockGated}/${blockTotal} = ${pct(blockRate)} (need >= ${pct(MIN_BLOCK_GATED)})` +
    `\nallow rows gated: ${allowGated}/${allowCounted} = ${pct(allowRate)} (need <= ${pct(MAX_ALLOW_GATED)}; ` +
    `${excepted} listed exceptions not counted)`,
);
const ok = blockRate >= MIN_BLOCK_GATED && allowRate <= MAX_ALLOW_GATED && exceptions.size <= MAX_EXCEPTIONS;
if (exceptions.size > MAX_EXCEPTIONS)
  console.log(`too many exceptions: ${exceptions.size} > ${MAX_EXCEPTIONS}`);
console.log(ok ? 'corpus: PASS' : 'corpus: FAIL');
process.exit(ok ? 0 : 1);

function loadExceptions() {
  if (!existsSync(exceptionsPath)) return new Map();
  const doc = parseYaml(readFileSync(exceptionsPath, 'utf8')) ?? {};
  const map = new Map();
  for (const entry of doc.exceptions ?? []) {
    if (
      !/^[0-9a-f]{64}$/.test(entry?.sha256 ?? '') ||
      typeof entry.reason !== 'string' ||
      entry.reason.trim() === ''
    ) {
      console.error(`corpus: malformed exception entry ${JSON.stringify(entry)}`);
      process.exit(1);
    }
    map.set(entry.sha256, entry.reason);
  }
  return map;
}

/** Runs one `tollgate classify --batch` process over all commands; one result line per input line. */
function classifyAll(commands) {
  if (!existsSync(cli)) {
    console.error(`corpus: ${cli} is missing (run the build first: npm run corpus builds it)`);
    process.exit(1);
  }
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, 'classify', '--batch'], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      const lines = out.split('\n').filter((l) => l.trim() !== '');
      if (code !== 0 || lines.length !== commands.length) {
        reject(
          new Error(
            `classify --batch exited ${code} with ${lines.length} result lines for ${commands.length} commands`,
          ),
        );
        return;
      }
      resolvePromise(lines.map((l) => JSON.parse(l)));
    });
    child.stdin.end(`${commands.map((command) => JSON.stringify({ command })).join('\n')}\n`);
  });
}

function sha256(text) {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function pct(x) {
  return `${(100 * x).toFixed(2)}%`;
}
