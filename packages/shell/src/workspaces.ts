// Where a package manager's command runs its scripts when options send it elsewhere: a directory
// (`npm --prefix web`, `pnpm -C api`, `yarn --cwd api`, `bun --cwd api`) or the workspace packages
// (`npm -w @acme/web`, `--workspaces`, `pnpm --filter api`, `pnpm -r`). Every workspace package a
// fan-out may reach is judged, a superset of those it reaches: more scripts read can only gate more.
import { posix } from 'node:path';
import type { FileView } from './files.js';

/** Options whose value is the directory the command runs in. */
const DIRECTORY = /^(--prefix|-C|--dir|--cwd)$/;
/** Options that pick workspace packages by a value (a name, a path, a filter); pnpm's -w is the root. */
const pick = (program: string) => (program === 'pnpm' ? /^(--filter|-F)$/ : /^(-w|--workspace|--filter|-F)$/);
/** Options that run in every workspace package (or the root alone). */
const EVERY = /^(--workspaces|-ws|-r|--recursive|-W|--workspace-root|--top-level|--include-workspace-root)$/;
/** npm reads any unambiguous prefix of a long option (`--prefi`): one of these is a placement it may mean. */
const NPM_PLACEMENT = ['--prefix', '--workspace', '--workspaces', '--include-workspace-root'];

export interface Placement {
  /** The argv without the placement options and their values. */
  argv: string[];
  /** A directory to run in (relative to the current one), if one was given. */
  directory?: string;
  /** Whether the workspace packages run too. */
  workspaces: boolean;
  /** The workspace root's scripts run (`pnpm -w`, `npm -W`), wherever in the workspace the command is. */
  root?: boolean;
  /** A fan-out includes the root's own script (`--include-workspace-root`). */
  includeRoot?: boolean;
  /** A placement the words cannot tell (a value the shell works out, an abbreviation, the environment's). */
  unknown: boolean;
}

/**
 * Read a package-manager command's placement options out of its words, and the environment's
 * (`npm_config_workspace=…`, `npm_config_prefix=…`): a placement the words cannot tell is unknown.
 */
export function placement(
  program: string,
  argv: readonly string[],
  unresolved: readonly boolean[],
  assignments: readonly string[] = [],
): Placement {
  const out: Placement = { argv: [argv[0] as string], workspaces: false, unknown: false };
  if (assignments.some((a) => /^npm_config_(workspaces?|prefix|include_workspace_root)=/i.test(a)))
    out.unknown = true;
  const picks = pick(program);
  let operands = 0;
  for (let k = 1; k < argv.length; k++) {
    const word = argv[k] as string;
    if (word === '--') {
      out.argv.push(...argv.slice(k));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    // `pnpm recursive run build` (`m`, `multi`): pnpm's -r as a command.
    if (program === 'pnpm' && operands === 0 && /^(recursive|m|multi)$/.test(word)) {
      out.workspaces = true;
      continue;
    }
    // `yarn workspace NAME SCRIPT`, `yarn workspaces run SCRIPT` (v1), `yarn workspaces foreach
    // [options] run SCRIPT` (berry): the workspace packages' scripts.
    if (program === 'yarn' && operands === 0 && (word === 'workspace' || word === 'workspaces')) {
      out.workspaces = true;
      if (word === 'workspace') {
        if (unresolved[k + 1]) out.unknown = true;
        k++;
      } else if (argv[k + 1] === 'foreach') {
        k++;
        while ((argv[k + 1] ?? '').startsWith('-')) {
          k++;
          if (/^--(include|exclude|from|jobs)$|^-j$/.test(argv[k] as string)) k++;
        }
      }
      continue;
    }
    if (!word.startsWith('-')) operands++;
    const pnpmRoot = program === 'pnpm' && name === '-w';
    if (pnpmRoot || EVERY.test(name) || /^--if-present=/.test(word)) {
      const rootOnly = pnpmRoot || /^(-W|--workspace-root)$/.test(name);
      if (rootOnly) out.root = true;
      else out.workspaces = true;
      if (name === '--include-workspace-root') out.includeRoot = true;
      continue;
    }
    if (
      program === 'npm' &&
      name.length >= 4 &&
      !NPM_PLACEMENT.includes(name) &&
      NPM_PLACEMENT.some((o) => o.startsWith(name))
    ) {
      out.unknown = true;
      continue;
    }
    if (!DIRECTORY.test(name) && !picks.test(name)) {
      out.argv.push(word);
      continue;
    }
    const at = eq > 0 ? k : k + 1;
    const value = eq > 0 ? word.slice(eq + 1) : argv[k + 1];
    if (eq < 0) k++;
    if (value === undefined || unresolved[at]) out.unknown = true;
    else if (DIRECTORY.test(name)) out.directory = value;
    else out.workspaces = true;
  }
  return out;
}

/**
 * The directories of a root's workspace packages (the package.json `workspaces` field; for pnpm,
 * pnpm-workspace.yaml `packages`), patterns `dir` and `dir/*`; undefined where the list cannot be
 * read whole (`**`, which reaches any depth, or an unreadable directory).
 */
export function workspaceDirs(files: FileView, root: string, program: string): string[] | undefined {
  const patterns = workspacePatterns(files, root, program);
  if (patterns === undefined) return undefined;
  const dirs: string[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    if (/^[^*?[{]+$/.test(clean)) {
      dirs.push(posix.join(root, clean));
      continue;
    }
    const m = /^([^*?[{]*?)\/?\*$/.exec(clean);
    if (!m) return undefined;
    const parent = posix.join(root, m[1] as string);
    const entries = files.readdir(parent);
    if (entries === undefined) return undefined;
    for (const entry of entries) {
      const dir = posix.join(parent, entry);
      if (files.realpath(posix.join(dir, 'package.json')) !== undefined) dirs.push(dir);
    }
  }
  return dirs;
}

/** pnpm reads pnpm-workspace.yaml; npm, yarn and bun the package.json `workspaces` field. */
function workspacePatterns(files: FileView, root: string, program: string): string[] | undefined {
  const pnpm =
    program === 'pnpm' ? files.readText(posix.join(root, 'pnpm-workspace.yaml'), 64 * 1024) : undefined;
  if (pnpm !== undefined) return pnpmPackages(pnpm);
  const text = files.readText(posix.join(root, 'package.json'), 1024 * 1024);
  if (text === undefined) return undefined;
  let workspaces: unknown;
  try {
    workspaces = (JSON.parse(text) as { workspaces?: unknown }).workspaces;
  } catch {
    return undefined;
  }
  const list = Array.isArray(workspaces)
    ? workspaces
    : workspaces && typeof workspaces === 'object'
      ? (workspaces as { packages?: unknown }).packages
      : [];
  if (list === undefined) return [];
  return Array.isArray(list) && list.every((p) => typeof p === 'string') ? list : undefined;
}

/** pnpm-workspace.yaml's `packages`: a flow list (`['a/*', "b"]`) or a block of `- 'a/*'` lines. */
function pnpmPackages(yaml: string): string[] | undefined {
  const flow = /^packages:[ \t]*\[([^\]]*)\]/m.exec(yaml)?.[1];
  if (flow !== undefined)
    return flow
      .split(',')
      .map((p) => p.trim().replace(/^['"]|['"]$/g, ''))
      .filter(Boolean);
  // Any other form on the key's own line is not read here.
  if (/^packages:[ \t]*[^\s#]/m.test(yaml)) return undefined;
  const block = /^packages:[ \t]*(?:#.*)?\n((?:[ \t]*(?:-.*|#.*)?\n?)*)/m.exec(yaml)?.[1] ?? '';
  return [...block.matchAll(/^[ \t]*-[ \t]*['"]?([^'"\n#]+?)['"]?[ \t]*(?:#.*)?$/gm)].map(
    (m) => m[1] as string,
  );
}
