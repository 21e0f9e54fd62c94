// What a git invocation changes or runs beyond its options: the configuration `git config` writes
// (so a rule can gate persistent keys that later run code, force pushes or re-route remotes), the
// `-c` pairs `git clone` writes into the new repository, and the commands `git submodule foreach`
// and `git bisect run` run.

import { optionModel, type ParsedOptions, parseOptions } from './option-model.js';
import { commandOf } from './prefixes.js';

export interface GitFacts {
  /** `key=value` for a key set or added, `key` for a key unset, `section.*` for a section renamed or removed, `*` for `--edit`. */
  configWrites?: string[];
  /** Configuration the command applies to itself (`git clone -c k=v`). */
  config?: string[];
  /** A shell command git runs (`submodule foreach CMD`, `bisect run CMD ARGS`). */
  command?: string;
}

/** Options of `git config set|unset|get|…` that take a value (the others do not matter here). */
const SUBCOMMAND_OPTIONS = optionModel(
  'f|file= blob= t|type= default= comment= value= url= regexp all append global system local worktree fixed-value',
  { negatable: true },
);

const CONFIG_SUBCOMMANDS = new Set([
  'set',
  'unset',
  'get',
  'list',
  'edit',
  'rename-section',
  'remove-section',
]);
const READ_MODES = [
  '--get',
  '--get-all',
  '--get-regexp',
  '--get-urlmatch',
  '--list',
  '--get-color',
  '--get-colorbool',
];

/**
 * Facts of `git SUB …`: `rest` is what follows the subcommand as written, `read` the same words read
 * by the subcommand's option model when it has one.
 */
export function gitFacts(sub: string, rest: readonly string[], read: ParsedOptions | undefined): GitFacts {
  const has = (name: string) => read?.canonical.includes(name) ?? false;
  const values = (name: string) =>
    (read?.canonical ?? []).filter((o) => o.startsWith(`${name}=`)).map((o) => o.slice(name.length + 1));
  switch (sub.toLowerCase()) {
    case 'config':
      return read
        ? { configWrites: configWrites(read.positionals.slice(1), has).map((w) => w.toLowerCase()) }
        : {};
    case 'remote':
      return read ? { configWrites: remoteConfigWrites(read.positionals.slice(1), read.canonical) } : {};
    case 'clone':
      return { config: values('--config').map((c) => c.toLowerCase()) };
    case 'submodule': {
      // `git submodule [--quiet] foreach [--recursive] COMMAND…`: one word is a shell string; more
      // are a command and its arguments, passed on intact (`foreach sh -c 'rm -rf x'`).
      const at = rest.indexOf('foreach');
      if (at < 0 || rest.slice(0, at).some((w) => !w.startsWith('-'))) return {};
      let k = at + 1;
      while (rest[k] === '--recursive' || rest[k] === '-q' || rest[k] === '--quiet') k++;
      return { command: commandOf(rest.slice(k)) };
    }
    case 'bisect':
      return rest[0] === 'run' ? { command: commandOf(rest.slice(1)) } : {};
    case 'grep': {
      // `git grep -O'CMD'` / `--open-files-in-pager=CMD` (any prefix git takes): CMD runs through
      // the shell with the matching files as its arguments.
      const pager = grepPager(rest);
      return pager === undefined ? {} : { command: commandOf([pager]) };
    }
    default:
      return {};
  }
}

/**
 * What `git remote VERB …` writes into the repository's configuration: it is `git config` on
 * remote.NAME.* keys, spelled otherwise. Adding a new remote re-routes nothing that was there and
 * passes, unless it mirrors pushes; pointing an existing name elsewhere (set-url, rename onto it) or
 * removing it is the same write as `git config remote.NAME.url …`, `--unset` or `--rename-section`.
 */
function remoteConfigWrites(args: string[], canonical: readonly string[]): string[] {
  const [verb, ...rest] = args;
  const name = (n: string | undefined) => (n ?? '*').toLowerCase();
  switch (verb) {
    case 'add': {
      // A bare --mirror means both fetch and push; only --mirror=fetch leaves pushes alone.
      const values = canonical.filter((o) => o.startsWith('--mirror='));
      const pushes =
        canonical.includes('--mirror') && (values.length === 0 || values.some((v) => v !== '--mirror=fetch'));
      return pushes ? [`remote.${name(rest[0])}.mirror=true`] : [];
    }
    case 'set-url': {
      const key = canonical.includes('--push') ? 'pushurl' : 'url';
      return [`remote.${name(rest[0])}.${key}=${rest[1] ?? ''}`];
    }
    case 'rename':
      return [`remote.${name(rest[0])}.*`, `remote.${name(rest[1])}.*`];
    case 'remove':
    case 'rm':
      return [`remote.${name(rest[0])}.*`];
    default:
      return [];
  }
}

function configWrites(args: string[], has: (name: string) => boolean): string[] {
  let mode: string | undefined;
  let words = args;
  const first = args[0];
  if (first !== undefined && CONFIG_SUBCOMMANDS.has(first)) {
    // `git config set [options] KEY VALUE`: the subcommand reads its own options, anywhere.
    const sub = parseOptions(SUBCOMMAND_OPTIONS, args.slice(1));
    mode = first === 'set' && sub.canonical.includes('--append') ? 'add' : first;
    words = sub.positionals;
  } else if (READ_MODES.some(has)) return [];
  else if (has('--edit')) mode = 'edit';
  else if (has('--unset') || has('--unset-all')) mode = 'unset';
  else if (has('--rename-section')) mode = 'rename-section';
  else if (has('--remove-section')) mode = 'remove-section';
  else if (has('--add') || has('--replace-all')) mode = 'set';
  else mode = words.length >= 2 ? 'set' : 'get';
  const [key, value] = words;
  switch (mode) {
    case 'set':
    case 'add':
      return key === undefined ? [] : [`${key}=${value ?? ''}`];
    case 'unset':
      return key === undefined ? [] : [key];
    case 'rename-section':
      return words.slice(0, 2).map((s) => `${s}.*`);
    case 'remove-section':
      return key === undefined ? [] : [`${key}.*`];
    case 'edit':
      return ['*'];
    default:
      return [];
  }
}

/** The command `git grep` opens matching files with, when one is given (`-OCMD`, `--open-files-in-pager=CMD`). */
function grepPager(rest: readonly string[]): string | undefined {
  for (const arg of rest) {
    if (arg === '--') break;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name.length >= 4 && '--open-files-in-pager'.startsWith(name) && eq > 0) return arg.slice(eq + 1);
    const cluster = /^-[A-Za-z]*O(.+)$/.exec(arg);
    if (cluster && !arg.startsWith('--')) return cluster[1];
  }
  return undefined;
}
