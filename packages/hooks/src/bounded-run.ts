// A child process the hook waits on, bounded: killed after a time limit, its output kept up to a
// size. The ticket filer (ticket-run.ts) keeps stdout and stderr; the claim probe (probe.ts) keeps
// stdout only, since a claim is about what a read prints.
import type { ChildProcess } from 'node:child_process';

export interface BoundedOptions {
  timeoutMs: number;
  maxOutput: number;
  /** Whether stderr counts as output (else it is drained and dropped). */
  keepStderr: boolean;
}

export type BoundedResult = { ok: true; code: number | null; output: string } | { ok: false; error: Error };

export function boundedRun(child: ChildProcess, options: BoundedOptions): Promise<BoundedResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer) => {
      if (size < options.maxOutput) chunks.push(chunk);
      size += chunk.length;
    };
    child.stdout?.on('data', take);
    if (options.keepStderr) child.stderr?.on('data', take);
    else child.stderr?.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      resolve({ ok: false, error });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).subarray(0, options.maxOutput).toString('utf8');
      resolve({ ok: true, code, output });
    });
  });
}
