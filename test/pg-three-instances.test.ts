// Three `tollgate serve` processes on one PostgreSQL database (a schema of this run's own) take
// 10,000 concurrent decisions — nine in ten unmatched (written behind), one in ten a gated deploy whose
// fresh read is posted just before it and whose inline prediction dispatches — then drain on SIGTERM.
// Afterwards `tollgate audit verify` passes on the shared chain, and it holds exactly one decision row
// per answered request and one consumed ticket per dispatch. Bounded: 16 clients, a four-minute cap.
import { type ChildProcess, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { dropSchema, freshSchemaName, PG_URL } from '../packages/store/src/pg-testing.js';
import { TOOLS_POLICY, tempDir } from './support/gate.js';
import { SERVE_BIN, SERVE_BUILT, type ServeProcess, startServe } from './support/serve.js';

const DECISIONS = 10_000;
const CLIENTS = 16;

const dir = tempDir('tollgate-pg-three-');
const schema = freshSchemaName('tg_three');
const url = `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const children: ChildProcess[] = [];

beforeAll(async () => {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  writeFileSync(join(dir, 'tollgate.config.yaml'), `policies: [${JSON.stringify(TOOLS_POLICY)}]\n`);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await dropSchema(schema);
  rmSync(dir, { recursive: true, force: true });
});

function serve(): Promise<ServeProcess> {
  return startServe({ cwd: dir, env: { TOLLGATE_DB: url }, onSpawn: (child) => children.push(child) });
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) throw new Error(`${path} → ${res.status}: ${JSON.stringify(answer)}`);
  return answer;
}

test.skipIf(!SERVE_BUILT)(
  '10,000 concurrent decisions across three serve instances on one PostgreSQL, then audit verify passes (needs npm run build)',
  async () => {
    // One at a time: the first migrates the schema, the others find it current.
    const servers: { child: ChildProcess; url: string }[] = [];
    for (let i = 0; i < 3; i++) servers.push(await serve());
    let next = 0;
    let dispatched = 0;
    let passed = 0;
    const client = async (c: number) => {
      for (let i = next++; i < DECISIONS; i = next++) {
        const base = servers[i % 3]?.url ?? '';
        const session = `three-${c}`;
        if (i % 10 === 0) {
          const source = { tool: 'release_status', args: { service: `svc-${i}` } };
          await post(base, '/v1/observations', { session, source, output: `svc-${i}: running build 41` });
          const verdict = await post(base, '/v1/check', {
            call: { tool: 'deploy', args: { service: `svc-${i}`, env: 'production' }, session },
            envelope: {
              prediction: {
                claims: [{ subject: source, op: 'contains', value: 'build 42' }],
                evidence: [{ source, quote: 'running build 41' }],
              },
            },
          });
          expect(verdict.outcome, JSON.stringify(verdict)).toBe('dispatch');
          dispatched++;
        } else {
          const verdict = await post(base, '/v1/check', {
            call: { tool: 'list_files', args: { path: `/srv/${i}` }, session },
          });
          expect(verdict.outcome).toBe('pass');
          passed++;
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
    expect(dispatched + passed).toBe(DECISIONS);
    // Drain: pass rows written behind are flushed before each process exits.
    const exits = servers.map(
      ({ child }) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code))),
    );
    for (const { child } of servers) child.kill('SIGTERM');
    expect(await Promise.all(exits)).toEqual([0, 0, 0]);

    const verify = spawnSync(process.execPath, [SERVE_BIN, 'audit', 'verify', '--json'], {
      cwd: dir,
      env: { ...process.env, TOLLGATE_DB: url },
      encoding: 'utf8',
    });
    expect(verify.status, verify.stdout + verify.stderr).toBe(0);
    const side = new pg.Client({ connectionString: url });
    await side.connect();
    try {
      const rows = await side.query<{ kind: string; n: string }>(
        'SELECT kind, count(*) AS n FROM audit GROUP BY kind ORDER BY kind',
      );
      expect(Object.fromEntries(rows.rows.map((r) => [r.kind, Number(r.n)]))).toMatchObject({
        decision: DECISIONS,
      });
      const used = await side.query<{ n: string }>(
        'SELECT count(*) AS n FROM predictions WHERE consumed_at IS NOT NULL',
      );
      expect(Number(used.rows[0]?.n)).toBe(dispatched);
    } finally {
      await side.end();
    }
  },
  // Every gated append takes the chain head's row lock: about a minute on a busy 2-core machine.
  240_000,
);
