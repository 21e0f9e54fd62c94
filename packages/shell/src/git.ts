// Git's own indirections: configuration given on the command line (`-c k=v`, `GIT_CONFIG_COUNT` /
// `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`) and the aliases it defines.
// `git -c alias.nuke=reset nuke --hard` is `git reset --hard`; an alias starting with `!` is a shell
// command.
import { GLOBAL_VALUE_OPTIONS } from './options.js';

export interface GitResolution {
  argv: string[];
  /** Lower-cased `key=value` pairs given on the command line or in the environment. */
  config: string[];
  /** The shell command of a `!` alias that the invocation runs, if any. */
  shellAlias?: string;
}

const GLOBAL = GLOBAL_VALUE_OPTIONS.git as ReadonlySet<string>;

export function resolveGit(argv: string[], assignments: string[]): GitResolution {
  const config = [...envConfig(assignments)];
  let current = argv;
  for (let round = 0; round < 5; round++) {
    const { subIndex, cliConfig } = scanGlobals(current);
    if (round === 0) config.push(...cliConfig);
    const sub = current[subIndex];
    if (sub === undefined) break;
    const alias = lookup(config, `alias.${sub.toLowerCase()}`);
    if (alias === undefined) break;
    if (alias.startsWith('!')) {
      return {
        argv: current,
        config: lower(config),
        shellAlias: `${alias.slice(1)} ${current.slice(subIndex + 1).join(' ')}`.trim(),
      };
    }
    const expansion = alias.split(/\s+/).filter(Boolean);
    current = [...current.slice(0, subIndex), ...expansion, ...current.slice(subIndex + 1)];
  }
  return { argv: current, config: lower(config) };
}

/** Index of the subcommand in argv (after git's global options), and the `-c` pairs seen. */
function scanGlobals(argv: string[]): { subIndex: number; cliConfig: string[] } {
  const cliConfig: string[] = [];
  let i = 1;
  while (i < argv.length) {
    const arg = argv[i] as string;
    if (arg === '--') {
      i++;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') break;
    if (arg === '-c') cliConfig.push(argv[i + 1] ?? '');
    else if (arg.startsWith('-c') && !arg.startsWith('--')) cliConfig.push(arg.slice(2));
    i += GLOBAL.has(arg) ? 2 : 1;
  }
  return { subIndex: i, cliConfig };
}

function envConfig(assignments: string[]): string[] {
  const env = new Map<string, string>();
  for (const a of assignments) {
    const eq = a.indexOf('=');
    env.set(a.slice(0, eq), a.slice(eq + 1));
  }
  const out: string[] = [];
  const countText = env.get('GIT_CONFIG_COUNT');
  if (countText !== undefined) {
    // git rejects a count that is not a plain integer, or a key/value pair that is missing;
    // `!malformed` lets a rule gate what cannot be read the way git reads it.
    const count = /^\d{1,3}$/.test(countText) ? Number(countText) : Number.NaN;
    if (Number.isNaN(count) || count > 64) out.push('!malformed');
    for (let n = 0; n < (Number.isNaN(count) ? 0 : Math.min(count, 64)); n++) {
      const key = env.get(`GIT_CONFIG_KEY_${n}`);
      const value = env.get(`GIT_CONFIG_VALUE_${n}`);
      if (!key || value === undefined) out.push('!malformed');
      else out.push(`${key}=${value}`);
    }
  }
  const params = env.get('GIT_CONFIG_PARAMETERS');
  if (params) {
    for (const m of params.matchAll(/'([^']*)'/g)) out.push(m[1] as string);
  }
  return out;
}

function lookup(config: string[], key: string): string | undefined {
  let found: string | undefined;
  for (const pair of config) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).toLowerCase() === key) found = pair.slice(eq + 1);
  }
  return found;
}

function lower(config: string[]): string[] {
  return config.map((c) => c.toLowerCase());
}
