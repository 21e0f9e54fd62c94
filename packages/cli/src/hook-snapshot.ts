// The hook's Node start-up snapshot: `node --snapshot-blob BLOB bin/tollgate.js hook <host>` starts
// with dist/hook.cjs already loaded, initialised and compiled (bin/hook-snapshot.cjs builds it). A
// blob only loads in the exact node binary and V8 flags that built it, so it is built for the node
// the hook command names, into the package's dist/.v8-cache (beside the code cache), and the hook
// command falls back to the plain start when node refuses it (hookCommand).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { shellLine, shellWord } from '@tollgate/hooks';

export type HookSnapshot = { blob: string } | { problem: string };

const BUILD_TIMEOUT_MS = 120_000;

/**
 * V8 flags the blob is built and run with (they must match: node refuses a blob built under other
 * flags, exit 14). Measured on the hook (bench/hook.bench.mjs; `--profile-deserialization`, perf):
 * - `--no-rehash-snapshot`: by default every string and hash table in the blob is rehashed with a
 *   fresh random seed as it is deserialised, about a third of the deserialisation (isolate 13.8 →
 *   8.8 ms, context 8.5 → 5.5 ms). Without it the seed is the one drawn when the blob was built; what
 *   a fixed seed allows (inputs crafted to collide in a hash table) only slows the one hook process
 *   that reads them, never changes its answer.
 * - `--no-opt --no-sparkplug --no-maglev`: a hook process lives ~90 ms and decides one call; code
 *   compiled by the optimising tiers never pays back within it (2 ms wall, 4 ms CPU on a read; on a
 *   300-segment command 160 → 140 ms wall, 200 → 141 ms CPU). WebAssembly stays available.
 */
export const SNAPSHOT_FLAGS: readonly string[] = [
  '--no-rehash-snapshot',
  '--no-opt',
  '--no-sparkplug',
  '--no-maglev',
];

/** Where the blob for this node binary goes: keyed by the binary's path, so an upgraded node rebuilds in place. */
export function hookSnapshotPath(node: string, bin: string): string {
  bin = realBin(bin);
  const key = createHash('sha256').update(node).digest('hex').slice(0, 16);
  return join(dirname(bin), '..', 'dist', '.v8-cache', `hook-${key}.blob`);
}

/**
 * The blob for `node` running `bin` (bin/tollgate.js), built when missing or stale (another node
 * version, another bundle), then tried once: a blob that does not answer a hook call is not used.
 */
export function ensureHookSnapshot(node: string, bin: string): HookSnapshot {
  bin = realBin(bin);
  const entry = join(dirname(bin), 'hook-snapshot.cjs');
  const bundle = join(dirname(bin), '..', 'dist', 'hook.cjs');
  if (!existsSync(entry) || !existsSync(bundle))
    return { problem: `no ${existsSync(entry) ? bundle : entry} to build a start-up snapshot from` };
  const blob = hookSnapshotPath(node, bin);
  const stamp = buildStamp(node, bundle, SNAPSHOT_FLAGS);
  if (stamp === undefined) return { problem: `cannot read the version of ${node}` };
  if (readStamp(blob) === stamp && tryBlob(node, bin, blob)) return { blob };
  const tmp = `${blob}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(blob), { recursive: true });
    const built = spawnSync(node, [...SNAPSHOT_FLAGS, '--snapshot-blob', tmp, '--build-snapshot', entry], {
      stdio: ['ignore', 'ignore', 'pipe'],
      encoding: 'utf8',
      timeout: BUILD_TIMEOUT_MS,
    });
    if (built.status !== 0 || !existsSync(tmp))
      return {
        problem: `node could not build the snapshot: ${lastLine(built.stderr ?? String(built.error))}`,
      };
    if (!tryBlob(node, bin, tmp)) return { problem: 'the built snapshot did not answer a hook call' };
    renameSync(tmp, blob);
    writeFileSync(`${blob}.stamp`, stamp);
    return { blob };
  } catch (error) {
    return { problem: `cannot write ${blob}: ${(error as Error).message}` };
  } finally {
    rmSync(tmp, { force: true });
  }
}

/**
 * The hook's command line. With a snapshot: run from it, and run the plain start only when node
 * could not start from the blob: it refuses one of another node version or V8 flags with exit 14
 * and aborts on a corrupt one (134), both before any JavaScript runs, so the plain start reads the
 * whole input. Any other exit is the hook's own answer and is kept with its code (0; 2 for a host
 * whose deny is exit 2, as Codex's), so there is never a second answer. POSIX shell, like the
 * variable assignments before it; the shell forks once and captures nothing.
 */
export function hookCommand(
  self: readonly string[],
  args: readonly string[],
  pin: Readonly<Record<string, string>>,
  snapshot?: { blob: string },
): string {
  const assignments = Object.entries(pin)
    .map(([k, v]) => `${k}=${shellWord(v)} `)
    .join('');
  const plain = `${assignments}${shellLine([...self, ...args])}`;
  if (snapshot === undefined || self.length < 2) return plain;
  const [node, ...rest] = self as [string, ...string[]];
  const fast = `${assignments}${shellLine([node, ...SNAPSHOT_FLAGS, '--snapshot-blob', snapshot.blob, ...rest, ...args])}`;
  return `${fast}; rc=$?; [ $rc -ne 14 ] && [ $rc -ne 134 ] && exit $rc; ${plain}`;
}

function buildStamp(node: string, bundle: string, flags: readonly string[]): string | undefined {
  const version =
    node === process.execPath
      ? `${process.version} ${process.versions.v8}`
      : spawnSync(node, ['-p', 'process.version + " " + process.versions.v8'], {
          encoding: 'utf8',
        }).stdout?.trim();
  if (!version) return undefined;
  const s = statSync(bundle);
  return `${version} ${process.arch} ${s.size}:${Math.trunc(s.mtimeMs)} ${flags.join(' ')}`.trimEnd();
}

function readStamp(blob: string): string | undefined {
  try {
    return readFileSync(`${blob}.stamp`, 'utf8');
  } catch {
    return undefined;
  }
}

/** One hook call from the blob with no host named: it must answer in the hook protocol (a refusal). */
function tryBlob(node: string, bin: string, blob: string): boolean {
  const r = spawnSync(node, [...SNAPSHOT_FLAGS, '--snapshot-blob', blob, bin, 'hook'], {
    input: '',
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status !== 0) return false;
  try {
    return JSON.parse(r.stdout).hookSpecificOutput?.permissionDecision === 'deny';
  } catch {
    return false;
  }
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 300) ?? '';
}

/** The package's bin/tollgate.js behind the word that started it (npx runs node_modules/.bin/tollgate, a link). */
function realBin(bin: string): string {
  try {
    return realpathSync(bin);
  } catch {
    return bin;
  }
}
