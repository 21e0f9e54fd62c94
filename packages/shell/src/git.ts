// Git's own indirections: configuration given on the command line (`-c k=v`, `GIT_CONFIG_COUNT` /
// `GIT_CONFIG_KEY_n` / `GIT_CONFIG_VALUE_n`, `GIT_CONFIG_PARAMETERS`) and the aliases it defines, on
// the command line or in the configuration files (read at decision time, see git-config.ts).
// `git -c alias.nuke=reset nuke --hard` is `git reset --hard`; an alias starting with `!` is a shell
// command. As in git, an alias never replaces a git command of the same name.
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { splitWords } from './prefixes.js';

export interface GitResolution {
  argv: string[];
  /** Lower-cased `key=value` pairs given on the command line or in the environment. */
  config: string[];
  /** The shell command of a `!` alias that the invocation runs, if any. */
  shellAlias?: string;
  /** The subcommand is no git command and the files that could define it as an alias were unreadable. */
  aliasUnknown?: boolean;
  /** The subcommand is no git command and help.autocorrect may run the git command it resembles. */
  autocorrect?: boolean;
}

/** Configuration read from files: `key=value` pairs in reading order, or unreadable. */
export interface FileConfig {
  entries: readonly string[];
  unreadable: boolean;
}

const GLOBAL = GLOBAL_VALUE_OPTIONS.git as ReadonlySet<string>;
/** help.autocorrect values that run the closest git command instead of a mistyped one. */
const AUTOCORRECTS = /^(-?[1-9]\d*|-\d+|immediate|prompt|true|yes|on)$/i;

/** git's commands (built in, or shipped in its exec path), which an alias cannot replace. */
export const GIT_COMMANDS = new Set(
  (
    'add am annotate apply archive bisect bisect--helper blame branch bugreport bundle cat-file check-attr ' +
    'check-ignore check-mailmap check-ref-format checkout checkout--worker checkout-index cherry cherry-pick ' +
    'clean clone column commit commit-graph commit-tree config count-objects credential credential-cache ' +
    'credential-store describe diagnose diff diff-files diff-index diff-tree difftool env--helper fast-export ' +
    'fast-import fetch fetch-pack fmt-merge-msg for-each-ref for-each-repo format-patch fsck fsck-objects ' +
    'fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook index-pack init init-db ' +
    'interpret-trailers log ls-files ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base ' +
    'merge-file merge-index merge-ours merge-recursive merge-subtree merge-tree mktag mktree multi-pack-index ' +
    'mv name-rev notes pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push ' +
    'range-diff read-tree rebase receive-pack reflog refs remote repack replace replay rerere reset restore ' +
    'rev-list rev-parse revert rm send-pack shortlog show show-branch show-index show-ref sparse-checkout ' +
    'stage stash status stripspace submodule submodule--helper switch symbolic-ref tag unpack-file ' +
    'unpack-objects update-index update-ref update-server-info upload-archive upload-pack var verify-commit ' +
    'verify-pack verify-tag version whatchanged worktree write-tree filter-branch mergetool request-pull ' +
    'quiltimport instaweb send-email svn cvsimport cvsexportcommit cvsserver p4 gui citool gitk subtree ' +
    'archimport web--browse difftool--helper imap-send daemon shell http-fetch http-push backfill'
  ).split(' '),
);

export function resolveGit(argv: string[], assignments: string[], files?: FileConfig): GitResolution {
  const env = envConfig(assignments);
  let config = env;
  let current = argv;
  const seen = new Set<string>();
  for (let round = 0; round < 5; round++) {
    // An alias may itself start with `-c k=v` (git accepts that): every round reads the pairs again.
    const { subIndex, cliConfig } = scanGlobals(current);
    config = [...env, ...withEnvValues(cliConfig, assignments)];
    const sub = current[subIndex];
    if (sub === undefined || GIT_COMMANDS.has(sub) || seen.has(sub)) break;
    seen.add(sub);
    const key = `alias.${sub.toLowerCase()}`;
    const alias = lookup(config, key) ?? (files ? lookup(files.entries, key) : undefined);
    if (alias === undefined) {
      if (files?.unreadable) return { argv: current, config: lower(config), aliasUnknown: true };
      const autocorrect =
        lookup(config, 'help.autocorrect') ?? (files ? lookup(files.entries, 'help.autocorrect') : undefined);
      if (autocorrect !== undefined && AUTOCORRECTS.test(autocorrect.trim())) {
        return { argv: current, config: lower(config), autocorrect: true };
      }
      break;
    }
    if (alias.startsWith('!')) {
      return {
        argv: current,
        config: lower(config),
        shellAlias: `${alias.slice(1)} ${current.slice(subIndex + 1).join(' ')}`.trim(),
      };
    }
    // git splits an alias with shell-like quoting (`push "--force"` is `push --force`).
    const expansion = splitWords(alias);
    current = [...current.slice(0, subIndex), ...expansion, ...current.slice(subIndex + 1)];
  }
  return {
    argv: current,
    config: lower([...env, ...withEnvValues(scanGlobals(current).cliConfig, assignments)]),
  };
}

/** Index of the subcommand in argv (after git's global options), and the `-c` pairs seen. */
export function scanGlobals(argv: string[]): { subIndex: number; cliConfig: string[] } {
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
    else if (arg === '--config-env' || arg.startsWith('--config-env=')) {
      // `--config-env=KEY=ENVVAR`: the value is read from the environment; `!` marks it unknown,
      // so an alias defined this way is treated as a shell alias.
      const spec = arg === '--config-env' ? (argv[i + 1] ?? '') : arg.slice('--config-env='.length);
      const eq = spec.lastIndexOf('=');
      cliConfig.push(`${eq > 0 ? spec.slice(0, eq) : spec}=!$${eq > 0 ? spec.slice(eq + 1) : ''}`);
    }
    i += GLOBAL.has(arg) ? 2 : 1;
  }
  return { subIndex: i, cliConfig };
}

/** The configuration one invocation is given (environment, then `-c`), as written: `key=value`. */
export function givenConfig(argv: string[], assignments: string[]): string[] {
  return [...envConfig(assignments), ...scanGlobals(argv).cliConfig];
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
  if (params) out.push(...(quotedConfigList(params) ?? ['!malformed']));
  return out;
}

/**
 * GIT_CONFIG_PARAMETERS as git reads it: shell-quoted entries, `'key=value'` or `'key'='value'`,
 * a quote written `'\''`; null where git would not read it.
 */
function quotedConfigList(text: string): string[] | null {
  let i = 0;
  const quoted = (): string | null => {
    if (text[i] !== "'") return null;
    i++;
    let word = '';
    for (;;) {
      if (i >= text.length) return null;
      const c = text[i++] as string;
      if (c !== "'") word += c;
      else if (text.startsWith("\\''", i)) {
        word += "'";
        i += 3;
      } else return word;
    }
  };
  const out: string[] = [];
  while (i < text.length) {
    if (/\s/.test(text[i] as string)) {
      i++;
      continue;
    }
    const key = quoted();
    if (key === null) return null;
    if (text[i] !== '=') {
      out.push(key);
      continue;
    }
    i++;
    const value = quoted();
    if (value === null) return null;
    out.push(`${key}=${value}`);
  }
  return out;
}

function lookup(config: readonly string[], key: string): string | undefined {
  let found: string | undefined;
  for (const pair of config) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).toLowerCase() === key) found = pair.slice(eq + 1);
  }
  return found;
}

/**
 * `--config-env=KEY=NAME` entries (`KEY=!$NAME`) given the value the command's own assignment sets
 * (`FOO=true git --config-env=remote.origin.mirror=FOO push`); the rest keep `!$NAME`, a value
 * not known here, which the rules read as the worst one.
 */
function withEnvValues(config: string[], assignments: string[]): string[] {
  return config.map((entry) => {
    const at = entry.indexOf('=!$');
    if (at < 0) return entry;
    const name = entry.slice(at + 3);
    const set = assignments.findLast((a) => a.startsWith(`${name}=`));
    const value = set?.slice(name.length + 1);
    return value === undefined || /[$`]/.test(value) ? entry : `${entry.slice(0, at)}=${value}`;
  });
}

function lower(config: string[]): string[] {
  return config.map((c) => c.toLowerCase());
}
