// Where a process-level gate's calls run and what belongs to the gate there: the project root, the
// home directory, and the gate's own files (its config, store, state base, `.tollgate/`, its own
// installation), so that every write to them is judged as a write to the gate (zone `gate`), and
// a FileView over the real file system so globs, `cd` and symlinks resolve where the command runs.
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GateWhere } from '@tollgate/core';
import { nodeFileView, TOOL_HOMES } from '@tollgate/shell';
import { CONFIG_FILE, type LoadedConfig } from './runtime.js';
import { shimDirs } from './shim-registry.js';
import { stateBase } from './state.js';

/** The installed package (…/packages/cli or node_modules/tollgate): bin/ and dist/ are the gate's own code. */
function installRoot(): string | undefined {
  try {
    const here = fileURLToPath(import.meta.url);
    return dirname(dirname(here));
  } catch {
    return undefined;
  }
}

/** `storeFile`: the SQLite store's path (undefined for a database URL). */
export function gateWhere(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
  storeFile: string | undefined,
): GateWhere {
  const home = env.HOME || homedir();
  const gate: string[] = [
    join(loaded.root, '.tollgate'),
    join(loaded.root, 'tollgate.config.yaml'),
    stateBase(env),
    // Shim directories given with --dir: a wrapper there is the gate as much as one under the state base.
    ...shimDirs(env),
  ];
  if (loaded.path !== undefined) gate.push(loaded.path);
  if (storeFile !== undefined)
    gate.push(storeFile, `${storeFile}-wal`, `${storeFile}-shm`, `${storeFile}-journal`);
  const install = installRoot();
  if (install !== undefined) gate.push(join(install, 'bin'), join(install, 'dist'));
  const temp = [...new Set(['/tmp', '/var/tmp', '/dev/shm', env.TMPDIR || tmpdir()])];
  return {
    project: { root: loaded.root, home, gate, temp, gateNames: [CONFIG_FILE] },
    files: nodeFileView(),
    ...(env.PATH !== undefined ? { path: withoutShims(env.PATH, [stateBase(env), ...shimDirs(env)]) } : {}),
    // Commands inherit the gate's environment: `$TMPDIR` is its value, or empty when it is unset;
    // a toolchain's home (`$JAVA_HOME/bin` put on PATH) is its value where it is set.
    env: {
      TMPDIR: env.TMPDIR,
      ...Object.fromEntries(
        TOOL_HOMES.filter((name) => env[name] !== undefined).map((name) => [name, env[name]]),
      ),
    },
  };
}

/**
 * PATH as the gate looks a bare program name up on it: without its own shim directories. A shim
 * hands the name to the gate, which runs the real program found past them; the shell package
 * judges a file PATH finds outside the system's directories, and a shim is not the program.
 */
function withoutShims(path: string, dirs: readonly string[]): string {
  const own = (entry: string) => {
    const at = entry.replace(/(.)\/+$/, '$1');
    return dirs.some((dir) => at === dir || at.startsWith(`${dir}/`));
  };
  return path
    .split(':')
    .filter((entry) => !own(entry))
    .join(':');
}
