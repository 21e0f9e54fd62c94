// A child process for the cross-process and crash tests: opens one SQLite store file and does one job,
// reporting on stdout one JSON line per acknowledged result. Run by spawn-worker.ts.
//   consume FILE IDS_JSON   wait for "go AT" on stdin, try to consume each prediction id, print the wins
//   append FILE TAG N       wait for "go AT", append N audit rows one at a time, print each seq
//   flood FILE TAG MAX      append rows as fast as possible until killed (or MAX), print each seq
//   open FILE TAG           wait for "go AT", then open the file (perhaps not yet created) and append one row
import { createInterface } from 'node:readline';
import { draft } from '../fixtures.js';
import { SqliteStore } from '../sqlite-store.js';

const [mode, file, arg, count] = process.argv.slice(2);
if (mode === undefined || file === undefined || arg === undefined)
  throw new Error('usage: MODE FILE ARG [N]');

// `open` opens only at the starting signal: the race it tests is the opening (creation, migration).
const opened = mode === 'open' ? undefined : await SqliteStore.open(file);
const say = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

/** Waits for "go AT" on stdin, then until the clock reads AT, so every worker starts at one instant. */
async function go(): Promise<void> {
  say({ ready: true });
  const lines = createInterface({ input: process.stdin });
  let at = 0;
  for await (const line of lines) {
    const m = /^go (\d+)$/.exec(line.trim());
    if (m) {
      at = Number(m[1]);
      break;
    }
  }
  lines.close();
  while (Date.now() < at - 2) await new Promise((r) => setTimeout(r, 1));
  while (Date.now() < at) {} // the last milliseconds spinning, for a sharper start
}

if (mode === 'open') {
  await go();
  const store = await SqliteStore.open(file);
  const [row] = await store.appendAudit([draft(arg)]);
  say({ seq: row?.seq });
  await opened?.close();
} else if (mode === 'consume') {
  const store = opened as SqliteStore;
  const ids = JSON.parse(arg) as string[];
  await go();
  const won: string[] = [];
  for (const id of ids) if (await store.consumePrediction(id, Date.now())) won.push(id);
  say({ won });
} else if (mode === 'append' || mode === 'flood') {
  const store = opened as SqliteStore;
  const max = Number(count ?? 1000);
  if (mode === 'append') await go();
  for (let i = 0; i < max; i++) {
    const [row] = await store.appendAudit([draft(arg, { agent: `${arg}-${i}` })]);
    say({ seq: row?.seq, id: row?.id });
  }
  say({ done: true });
} else {
  throw new Error(`unknown mode ${mode}`);
}
await opened?.close();
