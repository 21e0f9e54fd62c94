// Re-reading a claim subject after a dispatch: a shell read (one the policy classifies read-only,
// as gate.probesFor guarantees) run with a time limit and a bounded output. Tool subjects cannot be
// re-read from here and stay unverifiable until a client reports them.
import { spawn } from 'node:child_process';
import type { Source } from '@tollgate/contracts';
import type { ObservedOutput } from '@tollgate/core';

export type Probe = (subject: Source, cwd: string) => Promise<ObservedOutput | undefined>;

const TIMEOUT_MS = 15_000;
const MAX_OUTPUT = 1024 * 1024;

export const shellProbe: Probe = (subject, cwd) => {
  if (typeof subject !== 'string') return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', subject], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let size = 0;
    const take = (chunk: Buffer) => {
      if (size < MAX_OUTPUT) chunks.push(chunk);
      size += chunk.length;
    };
    // Claims are about what the read prints; stderr is not part of it.
    child.stdout.on('data', take);
    child.stderr.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      const output = Buffer.concat(chunks).subarray(0, MAX_OUTPUT).toString('utf8');
      resolve(code === null ? { output } : { output, exit_code: code });
    });
  });
};
