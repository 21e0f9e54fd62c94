// Re-reading a claim subject after a dispatch: a shell read (one the policy classifies read-only,
// as gate.probesFor guarantees) run with a time limit and a bounded output. Tool subjects cannot be
// re-read from here and stay unverifiable until a client reports them.
import { spawn } from 'node:child_process';
import type { Source } from '@tollgate/contracts';
import type { ObservedOutput } from '@tollgate/core';
import { boundedRun } from './bounded-run.js';

export type Probe = (subject: Source, cwd: string) => Promise<ObservedOutput | undefined>;

const TIMEOUT_MS = 15_000;
const MAX_OUTPUT = 1024 * 1024;

export const shellProbe: Probe = (subject, cwd) => {
  if (typeof subject !== 'string') return Promise.resolve(undefined);
  const child = spawn('/bin/sh', ['-c', subject], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  // Claims are about what the read prints; stderr is not part of it.
  return boundedRun(child, { timeoutMs: TIMEOUT_MS, maxOutput: MAX_OUTPUT, keepStderr: false }).then((r) => {
    if (!r.ok) return undefined;
    return r.code === null ? { output: r.output } : { output: r.output, exit_code: r.code };
  });
};
