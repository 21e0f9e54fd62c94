// Where a package manager's command runs its scripts when options send it elsewhere: a directory
// (`npm --prefix web`, `pnpm -C api`, `yarn --cwd api`, `bun --cwd api`) or the workspace packages
// (`npm -w @acme/web`, `--workspaces`, `pnpm --filter api`, `pnpm -r`). Every workspace package a
// fan-out may reach is judged, a superset of those it reaches: more scripts read can only gate more.
import { posix } from 'node:path';
import type { FileView } from './files.js';

/** Options whose value is the directory the command runs in. */
const DIRECTORY = /^(--prefix|-C|--dir|--cwd)$/;
/** Options that pick workspace packages by a value (a name, a path, a filter). */
const PICK = /^(-w|--workspace|--filter|-F)$/;
/** Options that run in every workspace package (or the root alone). */
const EVERY = /^(--workspaces|-ws|-r|--recursive|-W|--workspace-root|--top-level|--include-workspace-root)$/;

export interface Placement {
  /** The argv without the placement options and their values. */
  argv: string[];
  /** A directory to run in (relative to the current one), if one was given. */
  directory?: string;
  /** Whether the workspace packages run too. */
  workspaces: boolean;
  /** A placement the words cannot tell (a value the shell works out). */
  unknown: boolean;
}

/** Read a package-manager command's placement options out of its words. */
export function placement(argv: readonly string[], unresolved: readonly boolean[]): Placement {
  const out: Placement = { argv: [argv[0] as string], workspaces: false, unknown: false };
  for (let k = 1; k < argv.length; k++) {
    const word = argv[k] as string;
    if (word === '--') {
      out.argv.push(...argv.slice(k));
      break;
    }
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    if (EVERY.test(name) || /^--if-present=/.test(word)) {
      if (!/^(-W|--workspace-root)$/.test(name)) out.workspaces = true;
      continue;
    }
    if (!DIRECTORY.test(name) && !PICK.test(name)) {
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
 * The directories of a root's workspace packages (package.json `workspaces`, or pnpm-workspace.yaml
 * `packages`), patterns `dir`, `dir/*` and `dir/**` as far as one level below; undefined where the
 * list cannot be read whole (a deeper glob, an unreadable directory).
 */
export function workspaceDirs(files: FileView, root: string): string[] | undefined {
  const patterns = workspacePatterns(files, root);
  if (patterns === undefined) return undefined;
  const dirs: string[] = [];
  for (const pattern of patterns) {
    if (pattern.startsWith('!')) continue;
    const clean = pattern.replace(/^\.\//, '').replace(/\/$/, '');
    if (/^[^*?[{]+$/.test(clean)) {
      dirs.push(posix.join(root, clean));
      continue;
    }
    const m = /^([^*?[{]*?)\/?\*\*?$/.exec(clean);
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

function workspacePatterns(files: FileView, root: string): string[] | undefined {
  const pnpm = files.readText(posix.join(root, 'pnpm-workspace.yaml'), 64 * 1024);
  if (pnpm !== undefined) {
    const block = /^packages:\s*\n((?:[ \t]*(?:-.*|#.*)?\n?)*)/m.exec(pnpm)?.[1] ?? '';
    return [...block.matchAll(/^[ \t]*-[ \t]*['"]?([^'"\n#]+?)['"]?[ \t]*(?:#.*)?$/gm)].map(
      (m) => m[1] as string,
    );
  }
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
