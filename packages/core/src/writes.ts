// Every way of writing a file, as one list of (path, zone): a Write/Edit tool's path, an MCP file
// tool's path, or what a shell command writes (redirections, tee, cp/mv/ln, sed -i, rm, ...). The
// path rules (zones.ts) then judge them all alike.

import { posix } from 'node:path';
import type { ResolveContext, ShellFacts } from '@tollgate/shell';
import { LEAVES_NOTHING, METADATA_ONLY, resolvePath } from '@tollgate/shell';
import { pathsOfArgs } from './call-paths.js';
import {
  PROTECTED_ZONES,
  type ProjectPaths,
  protectedNamesIn,
  type Zone,
  zoneOf,
  zoneOfPattern,
} from './zones.js';

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
  /**
   * The write deletes or replaces a file git cannot give back that the session did not write (set by the gate
   * from ShellSegment.loses_unversioned and the session's writes): the person's only copy.
   */
  unversioned?: boolean;
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
    if (scope)
      out.push(
        ...namedGateFiles(segment, scope),
        ...unpackedOver(segment, scope),
        ...checkedOut(segment, scope),
        ...stashedAway(segment, scope),
      );
  }
  return out;
}

/** Most files below a protected directory (.claude, ...) a stash is asked about. */
const MAX_STASH_FILES = 64;

/**
 * A `git stash` push (ShellSegment.stashes): each file in a protected place of the work tree that
 * differs from HEAD (in the work tree or staged) goes back to HEAD's, and with -u an untracked one
 * is removed (`git stash -u` took the .claude/settings.json `tollgate init` wrote; `git stash` took
 * the hooks it added to a committed one). One git cannot answer for, or past the bound, is written.
 */
function stashedAway(segment: ShellFacts['segments'][number], scope: WriteScope): Write[] {
  const files = scope.context.files;
  if (!files || !segment.stashes) return [];
  const out: Write[] = [];
  for (const { top, untracked } of segment.stashes) {
    let staged: readonly string[] | undefined | null = null;
    const changed = (rel: string): boolean => {
      const tracked = files.tracked?.(top, rel);
      if (tracked === false) return untracked;
      if (tracked !== true || files.matchesIndex?.(top, rel) !== true) return true;
      staged ??= files.stagedChanges?.(top);
      return staged === undefined || staged.includes(rel);
    };
    for (const name of protectedNamesIn(top, scope.project)) {
      if (name === '.git') continue;
      for (const path of filesBelow(files, posix.join(top, name), MAX_STASH_FILES)) {
        const zone = zoneOf(path, scope.project);
        if (PROTECTED_ZONES.includes(zone) && changed(posix.relative(top, path))) out.push({ path, zone });
      }
    }
  }
  return out;
}

/**
 * The files at or below `path`: itself when it is no directory, else the files a walk of it finds;
 * past `max` files or eight levels, the directory itself (asked about as a whole). Nothing when it
 * does not exist.
 */
function filesBelow(files: NonNullable<WriteScope['context']['files']>, path: string, max: number): string[] {
  if (files.realpath(path) === undefined) return [];
  const out: string[] = [];
  // Eight levels at most: a link back up the tree holds no file to stop the walk.
  const walk = (at: string, depth: number): boolean => {
    const names = files.readdir(at);
    if (names === undefined) out.push(at);
    else if (depth >= 8) return false;
    else for (const name of names) if (!walk(posix.join(at, name), depth + 1)) return false;
    return out.length <= max;
  };
  return walk(path, 0) ? out : [path];
}

/**
 * Files a git command takes into the work tree from commits (ShellSegment.worktree_changes): those
 * in a protected zone are written (a commit the agent made holding .claude/settings.json, checked
 * out); the rest are the project's files as the commit has them, not the session's writes.
 */
function checkedOut(segment: ShellFacts['segments'][number], scope: WriteScope): Write[] {
  const out: Write[] = [];
  for (const path of segment.worktree_changes ?? []) {
    const zone = zoneOf(path, scope.project);
    if (PROTECTED_ZONES.includes(zone)) out.push({ path, zone });
  }
  return out;
}

/**
 * Programs that only read the files their words name. Any other program, where no write model found
 * what it writes, may write a file it names by a route no model lists: naming the gate's files, the
 * host's settings or the repository's internals, or giving an output option a protected path, is a
 * write there (`python3 -m json.tool a PIN`, `tool .git/config`, `go build -o ~/.local/bin/x`).
 */
const ONLY_READS: ReadonlySet<string> = new Set(
  (
    'cat less more head tail grep egrep fgrep rg ag ls stat wc file diff cmp sha256sum sha1sum md5sum ' +
    'b2sum cksum jq echo printf test [ [[ realpath readlink du tree bat nl od hexdump xxd strings ' +
    'tollgate git find ' +
    // Builtins and wrappers: their words assign, move about or name the command they run (a
    // segment of its own, judged for itself), not a file they write.
    'export declare typeset local readonly unset cd pushd popd exec command builtin env nice nohup ' +
    'time timeout sudo doas setsid stdbuf ionice chrt taskset flock'
  ).split(' '),
);

/** The gate's own CLI run by its path (`node …/bin/tollgate.js predict …`): it writes its store itself. */
const GATE_CLI = /(^|\/)(tollgate(\.[cm]?js)?|hook\.cjs)$/;

/** Options that name an output file for most programs (`-o OUT`, `--output=OUT`, `--outdir DIR`). */
const OUTPUT_OPTION = /^(-o|--output|--out|--outfile|--output-file|--output-dir|--outdir|--out-dir)$/;
/** Zones a named path lies in that no program this gate does not know may be trusted to only read. */
const NAMED_ZONES: readonly Zone[] = ['gate', 'host', 'vcs'];

function namedGateFiles(segment: ShellFacts['segments'][number], scope: WriteScope): Write[] {
  // A write model that found the program's writes has judged them already, precisely.
  if ((segment.writes?.length ?? 0) > 0) return [];
  if (ONLY_READS.has(segment.program) || segment.args.some((a) => GATE_CLI.test(a))) return [];
  const out: Write[] = [];
  const gate = scope.project.gate;
  const { args } = segment;
  for (let k = 0; k < args.length; k++) {
    const arg = args[k] as string;
    const eq = arg.startsWith('-') ? arg.indexOf('=') : -1;
    const value = eq > 0 ? arg.slice(eq + 1) : arg;
    // Named whole, or inside a word (`-oSTATE/x`, `--prefix=STATE/pins/`).
    const inside = gate.find((g) => g.length > 1 && value.includes(g));
    if (inside !== undefined) {
      out.push({ path: inside, zone: 'gate' });
      continue;
    }
    // An output option's value, wherever it points (`go build -o ~/bin/x`, `docker save -o ../x`).
    const output = OUTPUT_OPTION.test(eq > 0 ? arg.slice(0, eq) : arg);
    const named = output ? (eq > 0 ? value : args[k + 1]) : value;
    if (named === undefined || named === '' || named.startsWith('-')) continue;
    if (!output && !/[/.~]/.test(named)) continue;
    const abs = resolvePath(named, scope.context);
    if (abs === undefined) continue;
    const zone = zoneOfPattern(abs, scope.project);
    const protectedZone = output
      ? zone !== 'unresolved' && PROTECTED_ZONES.includes(zone)
      : NAMED_ZONES.includes(zone);
    if (protectedZone) out.push({ path: abs, zone });
  }
  return out;
}

/**
 * Programs that unpack an archive, or copy a tree, into a directory: which names land there is in
 * the archive or the tree copied, not in the command (`cp -r /tmp/x/. .`, `rsync -a /tmp/x/ ./`,
 * `docker cp c:/x/. .` wrote a .claude/settings.json and a tollgate.config.yaml staged there).
 */
const UNPACKERS: ReadonlySet<string> = new Set(
  'tar bsdtar unzip 7z 7za 7zr 7zz unrar rar cpio jar ditto zipfile tarfile cp rsync scp docker podman nerdctl kubectl oc'.split(
    ' ',
  ),
);

/**
 * An archive unpacked, or a tree copied, into a directory that holds the repository's internals,
 * the gate's or the host's files or start-up files: any of them may be among its members (`unzip -o
 * x.zip` at the root of a repository wrote .git/config and .claude/settings.local.json), so it
 * writes each one there.
 */
function unpackedOver(segment: ShellFacts['segments'][number], scope: WriteScope): Write[] {
  if (!UNPACKERS.has(segment.program) || segment.writes_trees !== true) return [];
  const files = scope.context.files;
  if (!files) return [];
  const out: Write[] = [];
  for (const dir of segment.writes ?? []) {
    if (!dir.startsWith('/') || segment.moves?.includes(dir)) continue;
    for (const name of protectedNamesIn(dir, scope.project)) {
      const path = posix.join(dir, name);
      if (files.realpath(path) === undefined) continue;
      const zone = zoneOf(path, scope.project);
      if (PROTECTED_ZONES.includes(zone)) out.push({ path, zone, tree: true });
    }
  }
  return out;
}

/** Without a scope (no cwd, no project known) relative paths are taken from the project root. */
/** Relative paths lie in a project of their own, whose gate files are where a config would find them. */
const NO_PROJECT: ProjectPaths = {
  root: '/\0no-project',
  gate: ['/\0no-project/.tollgate'],
  gateNames: ['tollgate.config.yaml', 'tollgate.config.yml'],
};
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
  return { path: abs, zone: zoneOfPattern(abs, scope.project) };
}
