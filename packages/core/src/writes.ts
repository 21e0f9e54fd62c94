// Every way of writing a file, as one list of (path, zone): a Write/Edit tool's path, an MCP file
// tool's path, or what a shell command writes (redirections, tee, cp/mv/ln, sed -i, rm, ...). The
// path rules (zones.ts) then judge them all alike.

import { posix } from 'node:path';
import type { ResolveContext, ShellFacts } from '@tollgate/shell';
import { LEAVES_NOTHING, METADATA_ONLY, resolvePath } from '@tollgate/shell';
import { pathsOfArgs } from './call-paths.js';
import { type ProjectPaths, type Zone, zoneOf } from './zones.js';

export interface Write {
  path: string;
  zone: Zone;
  /** Only the file's metadata changes (chmod, touch): its contents stay what was read. */
  metadataOnly?: boolean;
  /** The write removes the path or makes an empty directory there (rm, rmdir, mkdir): it leaves no contents. */
  leavesNothing?: boolean;
  /** The file is moved away from here (a move's source): what it held now lies at another write. */
  moved?: boolean;
  /** The path may be a directory filled with files the call does not name (`cp -r`, `tar -x -C`). */
  tree?: boolean;
  /** The write may land at any time after the call returns (a background job's: ShellSegment.writes_async). */
  async?: boolean;
}

/** Host tools that write the file named by these arguments (Claude Code's, MCP filesystem's). */
const WRITER_TOOLS: Record<string, readonly string[]> = {
  Write: ['file_path'],
  Edit: ['file_path'],
  MultiEdit: ['file_path'],
  NotebookEdit: ['notebook_path'],
  write_file: ['path'],
  edit_file: ['path'],
  create_directory: ['path'],
  move_file: ['source', 'destination'],
};
/** The arguments of those tools whose file is moved away (its contents go to another argument's path). */
const MOVED_ARGS: Record<string, string> = { move_file: 'source' };
/** Other tools whose name says they change files: their path-like arguments are write targets. */
const WRITING_NAME =
  /(^|[_-])(write|edit|create|move|rename|delete|remove|append|save|upload|patch|copy|mkdir|rm|unlink|truncate|overwrite|replace)([_-]|$)/i;

/** Where a call runs, and what the gate knows of the project: what resolving a write needs. */
export interface WriteScope {
  context: ResolveContext;
  project: ProjectPaths;
}

export function writesOfTool(
  tool: string,
  args: Record<string, unknown>,
  scope: WriteScope | undefined,
): Write[] | undefined {
  // A tool named after an inherited property (constructor) is no table entry.
  const keys = Object.hasOwn(WRITER_TOOLS, tool) ? WRITER_TOOLS[tool] : undefined;
  let raw: unknown[];
  if (keys) raw = keys.map((k) => args[k]);
  else if (WRITING_NAME.test(tool)) raw = pathsOfArgs(args);
  else return undefined;
  const moved = keys && Object.hasOwn(MOVED_ARGS, tool) ? args[MOVED_ARGS[tool] as string] : undefined;
  return raw.map((value) => {
    if (typeof value !== 'string' || value === '') return { path: String(value ?? ''), zone: 'unresolved' };
    const write = judge(value, scope);
    if (value === moved) write.moved = true;
    return write;
  });
}

/** The writes of every simple command of a parsed shell call. */
export function writesOfShell(facts: ShellFacts, scope: WriteScope | undefined): Write[] {
  const out: Write[] = [];
  for (const segment of facts.segments) {
    if (segment.via.includes('quoted')) continue;
    const metadataOnly = METADATA_ONLY.has(segment.program);
    // A clean of build output (rm -r, a find cleanup and the rm it runs) leaves nothing either.
    const leavesNothing = LEAVES_NOTHING.has(segment.program) || segment.build_outputs === true;
    for (const path of segment.writes ?? []) {
      const write = judge(path, scope, true);
      if (metadataOnly) write.metadataOnly = true;
      // Its redirections may write text: only the program's own operands leave nothing.
      if (leavesNothing && !segment.redirects.some((r) => r.target === path || path.endsWith(`/${r.target}`)))
        write.leavesNothing = true;
      if (segment.moves?.includes(path)) write.moved = true;
      if (segment.writes_trees) write.tree = true;
      if (segment.writes_async) write.async = true;
      out.push(write);
    }
    if (segment.writes_unresolved) out.push({ path: segment.text.slice(0, 200), zone: 'unresolved' });
  }
  return out;
}

/** Without a scope (no cwd, no project known) relative paths are taken from the project root. */
const NO_PROJECT: ProjectPaths = { root: '/\0no-project', gate: [] };
const NO_HOME = '/\0home';
const WITH_HOME: ProjectPaths = { ...NO_PROJECT, home: NO_HOME };
/** A glob (not expanded without a file system) whose last part could name a dotfile: `.*`, `.e*`. */
const DOT_GLOB = /(^|\/)\.[^/]*[*?[][^/]*$/;

/**
 * The zone of a path as written, nothing resolved: relative paths lie in the project root, so
 * `../x` is outside it and `.git/config`, `.envrc` are what they are in any project; `~/` is home. A glob that
 * could name a dotfile (.git, .envrc, .npmrc) cannot be told apart from one and is unresolved.
 */
function textualZone(path: string): Zone {
  if (path.startsWith('/')) return zoneOf(path, NO_PROJECT);
  // `~/x` (a word the shell expands, or a relative path after `cd ~/.ssh`): the user's home.
  if (path === '~' || path.startsWith('~/')) return zoneOf(`${NO_HOME}${path.slice(1)}`, WITH_HOME);
  if (path.startsWith('~')) return 'outside';
  if (DOT_GLOB.test(path)) return 'unresolved';
  return zoneOf(posix.join(NO_PROJECT.root, path), NO_PROJECT);
}

function judge(path: string, scope: WriteScope | undefined, resolved = false): Write {
  if (!scope) return { path, zone: textualZone(path) };
  const abs = resolved && path.startsWith('/') ? path : resolvePath(path, scope.context);
  if (abs === undefined) return { path, zone: 'unresolved' };
  return { path: abs, zone: zoneOf(abs, scope.project) };
}
