// Review notices under a burst (issue 13): N hook processes refusing N review calls at once each
// queue a notice, but only one detached `tollgate notify drain` is started for the project (the
// drain lock, packages/cli/src/drain-lock.ts), and it still delivers all N notices (at least once).
// Then, with the drainer gone, a filing after it starts a new one: a dead drainer's lock is no
// obstacle.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchRepo, tollgate } from '../packages/cli/src/testing/harness.js';

const N = 6;
const POLICY = `schema: tollgate.policy/v1
rules:
  - id: release.publish
    description: publishing a release needs a person
    tool: shell
    match:
      segment: { type: object, required: [program], properties: { program: { const: release-tool } } }
    class: irreversible
    severity: high
    review: required
`;

let repo: ReturnType<typeof scratchRepo>;
let server: Server;
const received: { id: string }[] = [];
let env: Record<string, string>;
// The webhook answers only once every filing of the burst has returned, so the first drainer is
// still live (and holds the lock) while the others file: which of them comes late cannot decide
// whether a second drainer is needed. A drainer that finished before a late filing would rightly
// let that filer start another one; that is the later test's case, not a burst's.
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});

beforeAll(async () => {
  repo = scratchRepo();
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      // Counted when answered: a request the drainer gave up on (timed out) was not delivered.
      void held.then(() => {
        if (req.socket.destroyed) return;
        received.push(body);
        res.end('{}');
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  writeFileSync(join(repo.work, 'review.policy.yaml'), POLICY);
  const config = join(repo.work, 'tollgate.config.yaml');
  writeFileSync(
    config,
    `policies: [builtin:shell, review.policy.yaml]
notify:
  webhooks:
    - { name: ops, url: "http://127.0.0.1:${port}/json", timeout_ms: 60000 }
`,
  );
  env = {
    TOLLGATE_CONFIG: config,
    TOLLGATE_DB: join(repo.root, 'gate.db'),
    TOLLGATE_STATE_DIR: join(repo.root, 'state'),
  };
  // The store is created once before the burst (N processes opening a fresh file at once race on
  // its first migration, which is not what this test is about).
  await tollgate(['audit', 'list', '--json'], { cwd: repo.work, env });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(repo.root, { recursive: true, force: true });
});

const pre = (command: string, id: string) =>
  JSON.stringify({
    session_id: 'burst-1',
    cwd: repo.work,
    permission_mode: 'default',
    hook_event_name: 'PreToolUse',
    tool_name: 'Bash',
    tool_input: { command },
    tool_use_id: id,
  });

async function file(i: number): Promise<string> {
  const answer = await tollgate(['hook', 'claude-code'], {
    cwd: repo.work,
    env,
    input: pre(`release-tool publish v${i}`, `toolu_burst_${i}`),
  });
  const id = /filed review ([0-9A-HJKMNP-TV-Z]{26})/.exec(answer.stdout)?.[1];
  if (id === undefined) throw new Error(`no review filed: ${answer.stdout}`);
  return id;
}

async function until(probe: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!probe()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

function stateDir(): string {
  const base = env.TOLLGATE_STATE_DIR as string;
  // The project's own directory (beside the store and config pins).
  const [project] = readdirSync(base, { withFileTypes: true }).filter(
    (e) => e.isDirectory() && e.name !== 'pins' && e.name !== 'config-pins',
  );
  if (!project) throw new Error(`no project state under ${base}`);
  return join(base, project.name);
}
const drainersStarted = () =>
  readFileSync(join(stateDir(), 'notify.log'), 'utf8')
    .split('\n')
    .filter((l) => / drainer \d+ started$/.test(l)).length;
const lockGone = () => {
  try {
    readFileSync(join(stateDir(), 'notify-drain.lock'));
    return false;
  } catch {
    return true;
  }
};

describe('a burst of review filings', () => {
  it(`${N} filings at once start one drainer, which delivers all ${N} notices`, async () => {
    const ids = await Promise.all(Array.from({ length: N }, (_, i) => file(i + 1)));
    expect(new Set(ids).size).toBe(N);
    release();
    await until(() => ids.every((id) => received.some((r) => r.id === id)), 20_000);
    // The drainer exits once the outbox is idle, and releases its lock.
    await until(lockGone, 20_000);
    expect(drainersStarted()).toBe(1);
    // Every notice arrived, each once (one drainer, and the store's claims).
    for (const id of ids) expect(received.filter((r) => r.id === id)).toHaveLength(1);
  });

  it('a lock left by a drainer that died is stale: the next filing starts a drainer and is delivered', async () => {
    // A pid that is not alive (beyond pid_max) holds the lock, as a killed drainer's would.
    writeFileSync(join(stateDir(), 'notify-drain.lock'), '999999999');
    const id = await file(100);
    await until(() => received.some((r) => r.id === id), 20_000);
    await until(lockGone, 20_000);
    expect(drainersStarted()).toBe(2);
  });

  it('a live holder (this test process) means no drainer is spawned; the notice waits in the outbox', async () => {
    writeFileSync(join(stateDir(), 'notify-drain.lock'), String(process.pid));
    const id = await file(200);
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.some((r) => r.id === id)).toBe(false);
    expect(drainersStarted()).toBe(2);
    // A person running the drainer by hand is told another one is live.
    const manual = await tollgate(['notify', 'drain'], { cwd: repo.work, env });
    expect(manual.stdout).toContain(`another drainer (pid ${process.pid})`);
    // Released: a hand-run drainer delivers what waited.
    rmSync(join(stateDir(), 'notify-drain.lock'));
    const run = await tollgate(['notify', 'drain'], { cwd: repo.work, env });
    expect(run.stdout).toContain('1 delivered');
    expect(received.some((r) => r.id === id)).toBe(true);
  });
});
