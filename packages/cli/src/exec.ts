// Running the user's command for `run` and `observe`: words after `--` run without a shell,
// --command strings through /bin/sh -c. Output is passed through (unless captured for --json) and
// kept, bounded, for the ledger.
import { spawn } from 'node:child_process';
import type { Writable } from 'node:stream';
import type { CommandLine } from './support.js';

export interface ExecResult {
  /** The command's own exit code; 128+N for a signal; 127 when it could not start. */
  code: number;
  stdout: string;
  stderr: string;
  /** Why it could not start, when it could not. */
  spawnError?: string;
}

const MAX_KEEP = 4 * 1024 * 1024;

export interface ExecOptions {
  /** The file to run instead of argv[0] (a shim's pinned real program); argv[0] stays the name it was called by. */
  file?: string;
  /** Leave stdout and stderr on the terminal (nothing is kept): a shim must not change what the program sees. */
  inherit?: boolean;
}

export function execCommand(
  line: CommandLine,
  cwd: string,
  env: NodeJS.ProcessEnv,
  passthrough: { stdout: Writable; stderr: Writable } | undefined,
  options: ExecOptions = {},
): Promise<ExecResult> {
  const [file, args] = line.argv
    ? [options.file ?? (line.argv[0] as string), line.argv.slice(1)]
    : ['/bin/sh', ['-c', line.command]];
  const argv0 = options.file !== undefined && line.argv ? { argv0: line.argv[0] as string } : {};
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd,
      env,
      ...argv0,
      stdio: options.inherit ? 'inherit' : ['inherit', 'pipe', 'pipe'],
    });
    const keep = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    const sizes = { stdout: 0, stderr: 0 };
    for (const name of ['stdout', 'stderr'] as const) {
      child[name]?.on('data', (chunk: Buffer) => {
        passthrough?.[name].write(chunk);
        if (sizes[name] < MAX_KEEP) keep[name].push(chunk);
        sizes[name] += chunk.length;
      });
    }
    let spawnError: string | undefined;
    child.on('error', (error) => {
      spawnError = error.message;
    });
    child.on('close', (code, signal) => {
      const text = (name: 'stdout' | 'stderr') =>
        Buffer.concat(keep[name]).subarray(0, MAX_KEEP).toString('utf8');
      const exit = spawnError !== undefined ? 127 : (code ?? 128 + signalNumber(signal));
      const result: ExecResult = { code: exit, stdout: text('stdout'), stderr: text('stderr') };
      if (spawnError !== undefined) result.spawnError = spawnError;
      resolve(result);
    });
  });
}

function signalNumber(signal: NodeJS.Signals | null): number {
  const numbers: Partial<Record<NodeJS.Signals, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGKILL: 9,
    SIGTERM: 15,
    SIGPIPE: 13,
  };
  return (signal && numbers[signal]) || 1;
}
