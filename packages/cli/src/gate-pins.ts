// The variables a wrapper written to disk (a git hook, a shim) exports so the process it starts asks
// the same gate as the command that wrote it: the config, the store and the store's id, as
// `init claude-code` pins them. Exported by the wrapper, they win over whatever the caller's
// environment says, so an agent's TOLLGATE_CONFIG=/tmp/lax.yaml does not move the gate.
import { realpathSync } from 'node:fs';
import { isDatabaseUrl, type LoadedConfig, storeEnv, storeTarget } from './runtime.js';
import { openPinnedStore } from './store-pin.js';

export async function gatePins(
  loaded: LoadedConfig,
  env: NodeJS.ProcessEnv,
): Promise<Record<string, string>> {
  const pins = storeEnv(loaded, env);
  const target = storeTarget(loaded, env);
  if (isDatabaseUrl(target)) return pins;
  const store = await openPinnedStore(target, env);
  try {
    return { ...pins, TOLLGATE_STORE_ID: await store.storeId() };
  } finally {
    await store.close();
  }
}

/** `export NAME='value'` lines for a /bin/sh script. */
export function exportLines(pins: Record<string, string>, quote: (s: string) => string): string {
  return Object.entries(pins)
    .map(([k, v]) => `export ${k}=${quote(v)}\n`)
    .join('');
}

/**
 * How a wrapper runs this tollgate: node and the entry script, symlinks resolved, so a wrapper
 * written through `npx tollgate` and one checked through `node …/bin/tollgate.js` read the same.
 */
export function selfCommand(): [string, string] {
  const entry = process.argv[1] ?? 'tollgate';
  try {
    return [process.execPath, realpathSync(entry)];
  } catch {
    return [process.execPath, entry];
  }
}
