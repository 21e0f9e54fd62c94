// Where shims live: --dir D, else `<state base>/shims` (~/.local/state/tollgate/shims). The default is
// under the gate's state base on purpose: a write there by a hooked agent is judged a write to the
// gate itself (gate-where.ts), so the agent cannot quietly rewrite a wrapper into `exec git "$@"`.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isShimFile } from './real-program.js';
import { canonicalPath, stateBase } from './state.js';

export function shimDir(given: string | undefined, cwd: string, env: NodeJS.ProcessEnv): string {
  return canonicalPath(given !== undefined ? resolve(cwd, given) : join(stateBase(env), 'shims'));
}

/** The wrappers in `dir` (files carrying the shim marker), by program name. */
export function installedShims(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => isShimFile(join(dir, n))).sort();
}
