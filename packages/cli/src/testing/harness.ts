// For end-to-end tests: run the real built binary as a child process, and make scratch git
// repositories with a bare remote in temp dirs. Nothing here is faked.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const BIN = join(import.meta.dirname, '../../bin/tollgate.js');
const BUNDLE = join(import.meta.dirname, '../../dist/tollgate.js');

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const INHERITED_NOT = new Set(['CLAUDE_PROJECT_DIR', 'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CI']);

export interface RunOptions {
  cwd: string;
  env?: Record<string, string>;
  input?: string | Uint8Array;
}

/**
 * Spawns `node bin/tollgate.js ARGS` with a clean TOLLGATE_* (and CLAUDE_PROJECT_DIR, CLAUDECODE) environment plus `env`.
 * The host's interactivity markers (CI, CLAUDE_CODE_ENTRYPOINT) are left out too: whether a person is at the host
 * depends on them, so a test sets them itself rather than inheriting the runner's (CI sets CI=true).
 */
export function tollgate(args: readonly string[], options: RunOptions): Promise<Run> {
  if (!existsSync(BUNDLE)) throw new Error(`${BUNDLE} is missing: run npm run build first`);
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('TOLLGATE_') && !INHERITED_NOT.has(k)) env[k] = v;
  Object.assign(env, options.env);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: options.cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
    child.stdin.on('error', () => {}); // the child may exit before reading everything
    child.stdin.end(options.input ?? '');
  });
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * A work tree on branch main with one pushed commit and one local commit ahead, and its bare remote,
 * in a new directory under `parent` (the system temp dir by default).
 */
export function scratchRepo(parent = tmpdir()): { root: string; work: string; remote: string } {
  mkdirSync(parent, { recursive: true });
  const root = mkdtempSync(join(parent, 'tollgate-e2e-'));
  const remote = join(root, 'remote.git');
  const work = join(root, 'work');
  git(root, 'init', '-q', '--bare', '-b', 'main', remote);
  git(root, 'init', '-q', '-b', 'main', work);
  git(work, 'config', 'user.email', 'e2e@example.invalid');
  git(work, 'config', 'user.name', 'e2e');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'first');
  git(work, 'remote', 'add', 'origin', remote);
  git(work, 'push', '-q', 'origin', 'main');
  git(work, 'commit', '-q', '--allow-empty', '-m', 'second');
  return { root, work, remote };
}

/** One JSON document from a child's stdout (the last non-empty line). */
export function lastJson<T = Record<string, unknown>>(stdout: string): T {
  const lines = stdout.trim().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}
