// SIGTERM during load against the real `tollgate serve` process: every request the server answered
// has its audit row in the store afterwards (gated rows are written before the answer, pass rows are
// flushed while draining), the chain verifies, and the process exits 0. Bounded: 8 clients, ~2 s.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openStore } from '@tollgate/store';
import { afterAll, expect, test } from 'vitest';
import { tempDir } from './support/gate.js';

const BIN = join(import.meta.dirname, '../packages/cli/bin/tollgate.js');
const BUILT = existsSync(join(import.meta.dirname, '../packages/cli/dist/tollgate.js'));
const dir = tempDir('tollgate-http-shutdown-');
const db = join(dir, 'gate.db');
const children: ChildProcess[] = [];
afterAll(() => {
  // A failed run must not leave a server behind.
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

export function startServe(
  cwd: string,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; lines: string[] }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${lines.join('\n')}`)), 15_000);
    child.stderr?.on('data', (d) => lines.push(String(d)));
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${lines.join('\n')}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      lines.push(line);
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'listening' && entry.url) {
        clearTimeout(timer);
        resolve({ child, url: entry.url, lines });
      }
    });
  });
}

test.skipIf(!BUILT)(
  'SIGTERM during load loses no acknowledged row (needs npm run build)',
  async () => {
    const { child, url, lines } = await startServe(dir, { TOLLGATE_DB: db });
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
