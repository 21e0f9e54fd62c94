// Every directory `tollgate shim install --dir D` has put wrappers in, listed under the state base
// (itself the gate's), so that gate-where.ts counts each one among the gate's own paths: a hooked
// agent's write there (replacing a wrapper with `exec git "$@"`) is gate.self, as it is in the default
// shim directory. A directory stays listed after its shims are removed: it may still be on PATH.
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { stateBase } from './state.js';

function registryFile(env: NodeJS.ProcessEnv): string {
  return join(stateBase(env), 'shim-dirs');
}

/** The shim directories installed into (absolute, canonical paths), oldest first. */
export function shimDirs(env: NodeJS.ProcessEnv): string[] {
  let text: string;
  try {
    text = readFileSync(registryFile(env), 'utf8');
  } catch {
    return [];
  }
  return [...new Set(text.split('\n').filter((l) => l !== '' && isAbsolute(l)))];
}

/** Lists `dir` (canonical, absolute) once. */
export function registerShimDir(env: NodeJS.ProcessEnv, dir: string): void {
  if (shimDirs(env).includes(dir) || dir.includes('\n')) return;
  mkdirSync(stateBase(env), { recursive: true });
  appendFileSync(registryFile(env), `${dir}\n`);
}
