// SIGTERM during load against the real `tollgate serve` process: every request the server answered
// has its audit row in the store afterwards (gated rows are written before the answer, pass rows are
// flushed while draining), the chain verifies, and the process exits 0. Bounded: 8 clients, ~2 s.
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { openStore } from '@tollgate/store';
import { afterAll, expect, test } from 'vitest';
import { tempDir } from './support/gate.js';
import { SERVE_BUILT, startServe } from './support/serve.js';

const dir = tempDir('tollgate-http-shutdown-');
const db = join(dir, 'gate.db');
const children: ChildProcess[] = [];
afterAll(() => {
  // A failed run must not leave a server behind.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

test.skipIf(!SERVE_BUILT)(
  'SIGTERM during load loses no acknowledged row (needs npm run build)',
  async () => {
    const { child, url, lines } = await startServe({
      cwd: dir,
      env: { TOLLGATE_DB: db },
      timeoutMs: 15_000,
      onSpawn: (c) => children.push(c),
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const acknowledged: string[] = [];
    let stop = false;
    let n = 0;
    const client = async (id: number) => {
      while (!stop) {
        const i = n++;
        // Alternate a gated call (written before the answer) and an unmatched one (written behind).
        const command = i % 2 === 0 ? `git push --force origin feat-${id}-${i}` : `echo ${id}-${i}`;
        try {
          const res = await fetch(`${url}/v1/check`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ call: { tool: 'shell', args: { command }, session: `load-${id}` } }),
          });
          if (res.status !== 200) continue;
          const verdict = (await res.json()) as { audit_id?: string };
          if (verdict.audit_id) acknowledged.push(verdict.audit_id);
        } catch {
          // Refused or cut while shutting down: never acknowledged, so nothing is owed.
          if (stop) return;
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    };
    const clients = Array.from({ length: 8 }, (_, id) => client(id));
    await new Promise((r) => setTimeout(r, 800));
    child.kill('SIGTERM');
    const deadline = setTimeout(() => {
      stop = true;
    }, 2000);
    const code = await exited;
    stop = true;
    clearTimeout(deadline);
    await Promise.all(clients);
    expect(code, lines.join('\n')).toBe(0);
    expect(acknowledged.length).toBeGreaterThan(20);

    const store = await openStore(db);
    try {
      const missing = [];
      for (const id of acknowledged) if (!(await store.getAudit(id))) missing.push(id);
      expect(missing).toEqual([]);
      expect(await store.verifyAudit()).toMatchObject({ ok: true });
    } finally {
      await store.close();
    }
  },
  30_000,
);
