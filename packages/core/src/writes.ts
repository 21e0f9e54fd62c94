// Every way of writing a file, as one list of (path, zone): a Write/Edit tool's path, an MCP file
// tool's path, or what a shell command writes (redirections, tee, cp/mv/ln, sed -i, rm, ...). The
// path rules (zones.ts) then judge them all alike.
import type { ResolveContext, ShellFacts } from '@tollgate/shell';
import { resolvePath } from '@tollgate/shell';
import { pathsOfArgs } from './call-paths.js';
import { type ProjectPaths, type Zone, zoneOf } from './zones.js';

export interface Write {
  path: string;
  zone: Zone;
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
  return raw.map((value) => {
    if (typeof value !== 'string' || value === '') return { path: String(value ?? ''), zone: 'unresolved' };
    return judge(value, scope);
  });
}

/** The writes of every simple command of a parsed shell call. */
export function writesOfShell(facts: ShellFacts, scope: WriteScope | undefined): Write[] {
  const out: Write[] = [];
  for (const segment of facts.segments) {
    if (segment.via.includes('quoted')) continue;
    for (const path of segment.writes ?? []) out.push(judge(path, scope, true));
    if (segment.writes_unresolved) out.push({ path: segment.text.slice(0, 200), zone: 'unresolved' });
  }
  return out;
}

/** Without a scope (no cwd, no project known) relative paths are taken as inside the project. */
const NO_PROJECT: ProjectPaths = { root: '/\0no-project', gate: [] };

function judge(path: string, scope: WriteScope | undefined, resolved = false): Write {
  if (!scope) return { path, zone: path.startsWith('/') ? zoneOf(path, NO_PROJECT) : 'project' };
  const abs = resolved && path.startsWith('/') ? path : resolvePath(path, scope.context);
  if (abs === undefined) return { path, zone: 'unresolved' };
  return { path: abs, zone: zoneOf(abs, scope.project) };
}
