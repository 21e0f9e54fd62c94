// Where the gate keeps its own state, outside the project tree: an agent working in the project can
// `rm -rf .tollgate`, `git clean -fdx` or check out old files, and none of that may reach the store, its
// pins or its anchors. The base is TOLLGATE_STATE_DIR, else $XDG_STATE_HOME/tollgate, else
// ~/.local/state/tollgate; each project gets `<name>-<12 hex of sha256(realpath of its root)>` below it.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';

/** The state base: TOLLGATE_STATE_DIR, $XDG_STATE_HOME/tollgate, or ~/.local/state/tollgate (absolute). */
export function stateBase(env: NodeJS.ProcessEnv): string {
  const explicit = env.TOLLGATE_STATE_DIR;
  if (explicit) return canonicalPath(resolve(explicit));
  // The XDG spec says a relative XDG_STATE_HOME is invalid and must be ignored.
  const xdg = env.XDG_STATE_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return canonicalPath(join(base, 'tollgate'));
}

/** True when the environment chose the state base (so a child process must be told the same one). */
export function stateBaseChosen(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.TOLLGATE_STATE_DIR || (env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)));
}

/** `<name>-<12 hex>`: readable, and unique per real project directory. */
export function projectKey(root: string): string {
  const real = canonicalPath(root);
  const name =
    basename(real)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  const hash = createHash('sha256').update(real, 'utf8').digest('hex').slice(0, 12);
  return `${name.startsWith('.') ? `_${name}` : name}-${hash}`;
}

/** This project's directory under the state base: the default store and the predicate cache live here. */
export function projectStateDir(root: string, env: NodeJS.ProcessEnv): string {
  return join(stateBase(env), projectKey(root));
}

export function defaultStorePath(root: string, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(root, env), 'tollgate.db');
}

/**
 * The path with symlinks resolved as far as it exists: the nearest existing ancestor's real path plus
 * the rest. One file has one spelling, so its pin is found whichever way the path was written, and a
 * deleted file still maps to the pin it had.
 */
export function canonicalPath(path: string): string {
  const abs = resolve(path);
  const rest: string[] = [];
  for (let dir = abs; ; dir = dirname(dir)) {
    if (existsSync(dir)) {
      try {
        return join(realpathSync(dir), ...rest.reverse());
      } catch {
        return abs;
      }
    }
    if (dirname(dir) === dir) return abs;
    rest.push(basename(dir));
  }
}
