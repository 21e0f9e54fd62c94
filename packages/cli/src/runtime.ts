// Everything a process-level adapter needs to build a gate: the config file (found from the working
// directory upward, or TOLLGATE_CONFIG), the store (TOLLGATE_DB, the config, or the project's
// directory under the state base, outside the project tree: state.ts), checked against its pin
// (store-pin.ts), and the policy. CLI commands, `tollgate serve` and `tollgate mcp` all start here.
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import type { Config } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import {
  type Channel,
  createGate,
  type Gate,
  type GateOptions,
  type GateWhere,
  type Policy,
  type SessionLimits,
  type Store,
  TollgateFault,
} from '@tollgate/core';
import { parse as parseYaml } from 'yaml';
import {
  ACCEPT_FIX,
  acceptedBytes,
  type ConfigPin,
  changesSince,
  type FileChange,
  type PinnedFile,
  pendingText,
  readBytes,
  readConfigPin,
  sha256,
  writeConfigPin,
} from './config-pin.js';
import { gateWhere } from './gate-where.js';
import { notice } from './notices.js';
import { reviewAnnouncer } from './notify.js';
import { loadPolicyFor } from './policy-loader.js';
import { canonicalPath, defaultStorePath, projectStateDir, stateBase, stateBaseChosen } from './state.js';
import { openPinnedStore, readPin } from './store-pin.js';

export const CONFIG_FILE = 'tollgate.config.yaml';
export const DEFAULT_POLICIES = ['builtin:shell', 'builtin:mcp'];
export const FILES_POLICY = 'builtin:files';

export interface LoadedConfig {
  config: Config;
  /** The config file, when one was found. */
  path?: string;
  /**
   * The project root: relative paths in the config resolve from it, and it names the project's
   * directory under the state base. The config file's directory; else the nearest directory upward
   * holding a `.git`; else the working directory. (A file the agent can create, such as a
   * `.tollgate/` directory, never moves the root: that would move the gate to another store.)
   */
  root: string;
  /** The accepted pin in force (config-pin.ts), when the config is pinned. */
  pin?: ConfigPin;
  /**
   * The files that changed since a person accepted the config. While any did, `config` is the
   * accepted copy and `ruleTexts` the accepted user rule files: the change is not in force.
   */
  pending?: FileChange[];
  /** User rule files' accepted text by listed path, read in place of the files on disk. */
  ruleTexts?: ReadonlyMap<string, string>;
}

/**
 * The config in force: found from the working directory upward (or TOLLGATE_CONFIG), and checked
 * against its pin — the one place every command, hook, `serve` and `mcp` load it. A config file that
 * vanished after it was pinned is found by its pin, and is a change like any other.
 */
export function findConfig(cwd: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const explicit = env.TOLLGATE_CONFIG;
  const base = stateBase(env);
  if (explicit) {
    const path = resolve(cwd, explicit);
    if (!existsSync(path) && readConfigPin(base, pinPath(path)) === undefined)
      throw new TollgateFault('config_invalid', `TOLLGATE_CONFIG names ${path}, which does not exist`);
    return loadConfigFile(path, env);
  }
  let repo: string | undefined;
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const path = join(dir, CONFIG_FILE);
    if (existsSync(path) || readConfigPin(base, pinPath(path)) !== undefined)
      return loadConfigFile(path, env);
    if (repo === undefined && existsSync(join(dir, '.git'))) repo = dir;
    if (dirname(dir) === dir) {
      const root = repo ?? resolve(cwd);
      return { config: {}, root, ...pinAbsence(join(root, CONFIG_FILE), env) };
    }
  }
}

/**
 * No config here or above: the built-in defaults are in force, and that too is pinned (at the
 * project root), so a config that appears there later — by `git apply`, `tar -x`, any route — is a
 * change a person accepts, not a first use. Best effort: a state directory that cannot be written
 * leaves the defaults in force unpinned, as before.
 */
function pinAbsence(path: string, env: NodeJS.ProcessEnv): { pin?: ConfigPin } {
  const key = pinPath(path);
  try {
    return {
      pin: writeConfigPin(stateBase(env), key, [{ path: key, sha256: null }], new Map(), 'first use'),
    };
  } catch {
    return {};
  }
}

/**
 * How a config file is named in its pin: its directory's real path plus its own name, not the file's
 * real path — a config replaced by a symlink to another file is still the pinned config, changed.
 */
export function pinPath(path: string): string {
  return join(canonicalPath(dirname(resolve(path))), basename(path));
}

/**
 * One config file checked against its pin: unpinned → pinned now (trust on first use); the same bytes
 * (config and user rule files) → in force; changed or deleted → the accepted copy stays in force and
 * the change is reported as pending (notices.ts), until a person runs `tollgate config accept`.
 */
export function loadConfigFile(path: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const root = dirname(path);
  const base = stateBase(env);
  const key = pinPath(path);
  const pin = readConfigPin(base, key);
  const bytes = readBytes(path);
  if (pin === undefined) {
    if (bytes === undefined) throw new TollgateFault('config_invalid', `the config ${path} does not exist`);
    const loaded: LoadedConfig = { config: parseConfig(path, bytes), path, root };
    const first = pinConfig(loaded, bytes, env, 'first use');
    return first === undefined ? loaded : { ...loaded, pin: first };
  }
  const changes = changesSince(pin, bytes);
  if (changes.length === 0)
    // Pinned absent and still absent: the built-in defaults, as with no config at all.
    return bytes === undefined
      ? { config: {}, root, pin }
      : { config: parseConfig(path, bytes), path, root, pin };
  const [configFile, ...ruleFiles] = pin.files as [PinnedFile, ...PinnedFile[]];
  const accepted: LoadedConfig = {
    // A config that appeared where none was accepted leaves the built-in defaults in force.
    config:
      configFile.sha256 === null ? {} : parseConfig(`${path} (as accepted)`, acceptedBytes(base, configFile)),
    path,
    root,
    pin,
    pending: changes,
  };
  const listed = userRuleFiles(accepted);
  if (listed.length !== ruleFiles.length)
    throw new TollgateFault('config_invalid', `the config pin of ${path} does not match its accepted copy`, {
      fix: ACCEPT_FIX,
    });
  notice(pendingText(changes));
  return {
    ...accepted,
    ruleTexts: new Map(
      listed.map((f, i) => [f, acceptedBytes(base, ruleFiles[i] as PinnedFile).toString('utf8')]),
    ),
  };
}

/**
 * Records the config as it is now (its bytes, given, and its user rule files as on disk) as the
 * accepted one. Nothing is pinned while a rule file it lists is missing: the policy load refuses that
 * config anyway, and a pin of a hole would accept whatever appears there later.
 */
export function pinConfig(
  loaded: LoadedConfig,
  configBytes: Buffer,
  env: NodeJS.ProcessEnv,
  acceptedBy: string,
): ConfigPin | undefined {
  if (loaded.path === undefined) return undefined;
  const key = pinPath(loaded.path);
  const files: PinnedFile[] = [{ path: key, sha256: sha256(configBytes) }];
  const bytes = new Map<string, Buffer>([[key, configBytes]]);
  for (const file of userRuleFiles(loaded)) {
    const content = readBytes(file);
    if (content === undefined) return undefined;
    files.push({ path: file, sha256: sha256(content) });
    bytes.set(file, content);
  }
  const base = stateBase(env);
  try {
    return writeConfigPin(base, key, files, bytes, acceptedBy);
  } catch (error) {
    throw new TollgateFault(
      'config_invalid',
      `cannot pin the config ${loaded.path} under ${base}: ${(error as Error).message}`,
      { fix: 'make the tollgate state directory writable (or point TOLLGATE_STATE_DIR at one)' },
    );
  }
}

/**
 * The user rule files a config lists — `policies:` and each `mcp.upstreams.*.policies` — resolved as
 * their loaders resolve them (builtin catalogues live in the installation, protected already).
 */
export function userRuleFiles(loaded: LoadedConfig): string[] {
  const upstream = Object.values(loaded.config.mcp?.upstreams ?? {}).flatMap((u) =>
    (u?.policies ?? []).map((f) => (f.startsWith('builtin:') || isAbsolute(f) ? f : resolve(loaded.root, f))),
  );
  return [...new Set([...policyFiles(loaded), ...upstream])].filter((f) => !f.startsWith('builtin:'));
}

/** The store's place before it moved under the state base, honoured only for existing stores. */
const LEGACY_STORE = join('.tollgate', 'tollgate.db');

export function readConfig(path: string): Config {
  const bytes = readBytes(path);
  if (bytes === undefined) throw new TollgateFault('config_invalid', `the config ${path} does not exist`);
  return parseConfig(path, bytes);
}

/** A config document from its bytes, validated against the config schema. */
export function parseConfig(path: string, bytes: Buffer): Config {
  let doc: unknown;
  try {
    doc = parseYaml(bytes.toString('utf8')) ?? {};
  } catch (error) {
    throw new TollgateFault('config_invalid', `${path}: not valid YAML: ${(error as Error).message}`);
  }
  const result = validate<Config>('config', doc);
  if (!result.valid) {
    const first = result.problems[0];
    throw new TollgateFault(
      'config_invalid',
      `${path} at ${first?.path || '/'}: ${first?.message ?? 'invalid'}`,
      { problems: result.problems },
    );
  }
  return result.data;
}

export function storeTarget(loaded: LoadedConfig, env: NodeJS.ProcessEnv): string {
  const target = env.TOLLGATE_DB || loaded.config.store;
  if (!target) return defaultStore(loaded.root, env);
  if (/^postgres(ql)?:\/\//i.test(target) || isAbsolute(target)) return target;
  return resolve(loaded.root, target);
}

/**
 * The project's store under the state base; a legacy `<root>/.tollgate/tollgate.db` only while it is
 * the store this project uses (it exists or is pinned, and the state-base store was never pinned), so
 * an agent creating or deleting that file cannot move the gate to a store of its choosing.
 */
function defaultStore(root: string, env: NodeJS.ProcessEnv): string {
  const current = defaultStorePath(root, env);
  const legacy = join(root, LEGACY_STORE);
  const base = stateBase(env);
  if (readPin(base, current) !== undefined) return current;
  return existsSync(legacy) || readPin(base, legacy) !== undefined ? legacy : current;
}

export function policyFiles(loaded: LoadedConfig): string[] {
  // The trust boundary (builtin:files: writes to the gate, the host's hooks, outside the project) is
  // always in force; a config can add catalogues, not drop it.
  const files = [...new Set([FILES_POLICY, ...(loaded.config.policies ?? DEFAULT_POLICIES)])];
  return files.map((f) => (f.startsWith('builtin:') || isAbsolute(f) ? f : resolve(loaded.root, f)));
}

/** Where compiled predicates of user rule files are cached: the project's state directory. */
export function cacheDir(loaded: LoadedConfig, env: NodeJS.ProcessEnv): string {
  return join(projectStateDir(loaded.root, env), 'cache');
}

/** Config and policy only, without a store (tollgate classify, rules). */
export function openPolicy(cwd: string, env: NodeJS.ProcessEnv): { loaded: LoadedConfig; policy: Policy } {
  const loaded = findConfig(cwd, env);
  return { loaded, policy: loadPolicyFor(policyFiles(loaded), cacheDir(loaded, env), loaded.ruleTexts) };
}

/**
 * Variables that point another tollgate process at the same config and store as this one. They end
 * up on command lines the agent sees (the rewritten `tollgate predict`, the hook command in
 * .claude/settings.json), so a database URL is never among them: it may carry credentials. With a
 * PostgreSQL store the other process finds it the same way this one did (TOLLGATE_CONFIG, or its
 * own TOLLGATE_DB environment).
 */
export function storeEnv(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  const target = storeTarget(loaded, env);
  if (!isDatabaseUrl(target)) out.TOLLGATE_DB = target;
  // Always the config this process found, even where there is none (its absence is pinned at the
  // root): the other process runs in the agent's directory, where a config the agent wrote below
  // the root would otherwise be found first.
  out.TOLLGATE_CONFIG = loaded.path ?? join(loaded.root, CONFIG_FILE);
  // The other process must check the same pins; the default base needs no mention.
  if (stateBaseChosen(env)) out.TOLLGATE_STATE_DIR = stateBase(env);
  if (env.TOLLGATE_STORE_ID) out.TOLLGATE_STORE_ID = env.TOLLGATE_STORE_ID;
  return out;
}

/** A store target that is a URL (postgres://user:pass@host/db), not a file path. */
export function isDatabaseUrl(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(target);
}

/**
 * Where a hook process looks for its config and store: the project Claude Code runs in
 * (CLAUDE_PROJECT_DIR, set by Claude Code for hooks), else the process's own cwd — never the cwd the
 * hook input names, which the agent controls (`cd sub` with a sub/tollgate.config.yaml would pick
 * another config).
 */
export function hookConfigDir(cwd: string, env: NodeJS.ProcessEnv): string {
  const project = env.CLAUDE_PROJECT_DIR;
  return project ? resolve(cwd, project) : cwd;
}

export interface Runtime {
  loaded: LoadedConfig;
  policy: Policy;
  store: Store;
  gate: Gate;
  /** Where the gate resolves calls (gate-where.ts): an adapter resolving commands itself uses the same. */
  where: GateWhere;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  channel: Channel;
  gate?: Partial<GateOptions>;
  /**
   * How a filed review request reaches the config's webhooks (notify.ts): by default a detached
   * drainer process; a long-lived process passes its own in-process drain to kick.
   */
  kickNotify?: () => void;
}

/** Loads config and policy, opens the store, and builds the gate. Faults carry codes; callers map them. */
export async function openRuntime(options: RuntimeOptions): Promise<Runtime> {
  const { loaded, policy } = openPolicy(options.cwd, options.env);
  const target = storeTarget(loaded, options.env);
  const store = await openPinnedStore(target, options.env);
  const { config } = loaded;
  const announce = reviewAnnouncer(loaded, options.env, () => store, options.kickNotify);
  const where: GateWhere = {
    ...gateWhere(loaded, options.env, isDatabaseUrl(target) ? undefined : target),
    // A command line's calls run where it was typed (`tollgate predict --for …` files a ticket for a
    // call made there): its reads and paths are judged from there, not from the project's root.
    ...(options.channel === 'cli' ? { cwd: options.cwd } : {}),
  };
  const gate = createGate({
    policy,
    store,
    where,
    channel: options.channel,
    ...(config.mode !== undefined ? { mode: config.mode } : {}),
    ...(config.deny_ceiling !== undefined ? { denyCeiling: config.deny_ceiling } : {}),
    ...(config.unmatched !== undefined ? { unmatched: config.unmatched } : {}),
    ...(config.default_max_age_s !== undefined ? { defaultMaxAgeS: config.default_max_age_s } : {}),
    ...(config.excerpt_bytes !== undefined ? { excerptBytes: config.excerpt_bytes } : {}),
    limits: sessionLimitsOf(config.limits),
    ...(announce !== undefined ? { onReviewFiled: announce } : {}),
    ...options.gate,
  });
  return {
    loaded,
    policy,
    store,
    gate,
    where,
    async close() {
      await gate.flush();
      await store.close();
    },
  };
}

/** The session: --session, TOLLGATE_SESSION, or a host id the caller passes; else "default". */
export function sessionFrom(flag: string | undefined, env: NodeJS.ProcessEnv, host?: string): string {
  return flag || env.TOLLGATE_SESSION || host || 'default';
}

/** limits.session_* of the config as the gate takes them; each one unset keeps core's default. */
export function sessionLimitsOf(limits: Config['limits']): Partial<SessionLimits> {
  return {
    ...(limits?.session_observations !== undefined ? { observations: limits.session_observations } : {}),
    ...(limits?.session_excerpt_bytes !== undefined ? { excerptBytes: limits.session_excerpt_bytes } : {}),
    ...(limits?.session_pending_tickets !== undefined
      ? { pendingTickets: limits.session_pending_tickets }
      : {}),
  };
}
