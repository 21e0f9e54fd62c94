// Starts workers/store-worker.ts as a real OS process (node + tsx, resolving workspace packages to
// src through the `source` condition) and exposes its JSON-line stdout to the tests.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const workerPath = fileURLToPath(new URL('./workers/store-worker.ts', import.meta.url));
const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface Worker {
  child: ChildProcess;
  /** Every JSON line printed so far. */
  lines: Record<string, unknown>[];
  /** Resolves when a line satisfies the predicate. */
  waitFor(predicate: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

export function spawnWorker(args: string[]): Worker {
  const child = spawn(
    process.execPath,
    ['--conditions=tollgate-source', '--import', 'tsx', workerPath, ...args],
    {
      cwd: repoRoot,
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffer = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) if (part.trim() !== '') lines.push(JSON.parse(part) as Record<string, unknown>);
    for (const wake of waiters) wake();
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve) =>
      child.on('close', (code, signal) => {
        for (const wake of waiters) wake();
        resolve({ code, signal, stderr });
      }),
  );
  const waitFor = (predicate: (line: Record<string, unknown>) => boolean, timeoutMs = 30_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`worker did not report in ${timeoutMs} ms; stderr: ${stderr}`));
      }, timeoutMs);
      const check = () => {
        if (lines.some(predicate)) {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        } else if (child.exitCode !== null || child.signalCode !== null) {
          clearTimeout(timer);
          waiters.delete(check);
          reject(new Error(`worker exited (${child.exitCode ?? child.signalCode}); stderr: ${stderr}`));
        }
      };
      waiters.add(check);
      check();
    });
  return { child, lines, waitFor, exited };
}
