// Test support: a real `tollgate serve` process on a free port (`--port 0`), resolved once its log
// says where it listens. The caller owns the child: it kills it (or records it for an afterAll that does).
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export const SERVE_BIN = join(import.meta.dirname, '../../packages/cli/bin/tollgate.js');
/** Whether the CLI is built (the bin runs dist/); tests that spawn it skip otherwise. */
export const SERVE_BUILT = existsSync(join(import.meta.dirname, '../../packages/cli/dist/tollgate.js'));

export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Every stdout line and stderr chunk so far, and later ones as they come. */
  lines: string[];
}

export interface ServeOptions {
  cwd: string;
  /** Added to this process's environment. */
  env?: Record<string, string>;
  /** How long to wait for the `listening` line; 20 s unless told. */
  timeoutMs?: number;
  /** Called with the child as soon as it is spawned, so a failed start still leaves it to be killed. */
  onSpawn?: (child: ChildProcess) => void;
}

export function startServe(options: ServeOptions): Promise<ServeProcess> {
  const child = spawn(process.execPath, [SERVE_BIN, 'serve', '--port', '0'], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  options.onSpawn?.(child);
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`serve did not start: ${lines.join('\n')}`)),
      options.timeoutMs ?? 20_000,
    );
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
