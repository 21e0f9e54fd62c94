// Where a written path lies, as far as the gate cares: the gate's own files, the agent host's
// settings and hooks, version-control internals, start-up files, system paths, anything outside the
// project, or an ordinary file inside it. Every way of writing a file (a Write tool, a shell
// redirection, cp/mv/tee, an MCP file tool) is judged by this one function.
import { posix } from 'node:path';
import { FOLDABLE, foldPath } from '@tollgate/shell';

export type Zone =
  | 'gate'
  | 'host'
  | 'vcs'
  | 'startup'
  | 'system'
  | 'outside'
  | 'unresolved'
  | 'temp'
  | 'sink'
  | 'project';

/** Zones whose writes are gated; `gate` and `host` are for an operator only. */
export const PROTECTED_ZONES: readonly Zone[] = [
  'gate',
  'host',
  'vcs',
  'startup',
  'system',
  'outside',
  'unresolved',
];

export interface ProjectPaths {
  /** The project root: the directory of the config file, or where the gate runs. */
  root: string;
  /** The user's home directory. */
  home?: string;
  /** The gate's own files and directories: config, store (and its -wal/-shm), state directory, installation. */
  gate: readonly string[];
  /** Scratch directories writes may go to freely (/tmp, /var/tmp, /dev/shm, $TMPDIR). */
  temp?: readonly string[];
  /**
   * File names that are the gate's wherever they lie (the config file name): a gate process started
   * in that directory would find the file there and take it as its config.
   */
  gateNames?: readonly string[];
}

/** Agent host settings and hooks, relative to the project root and to the home directory. */
const HOST_IN_PROJECT = ['.mcp.json', '.codex', '.gemini', '.cursor', '.github/hooks', '.vscode/mcp.json'];
const HOST_IN_HOME = [
  '.claude',
  '.claude.json',
  '.codex',
  '.gemini',
  '.cursor',
  '.copilot',
  '.config/github-copilot',
  '.config/claude',
];
/**
 * What a `.claude` directory holds that Claude Code obeys or runs: settings, hooks, and skills,
 * subagents and commands (their front matter carries hooks, their `!` lines run commands without
 * the Bash tool). In any directory of the project: Claude Code may be started in, or work below, it.
 */
const CLAUDE_HOST = new Set([
  'settings.json',
  'settings.local.json',
  'hooks',
  'skills',
  'agents',
  'commands',
]);

function claudeHost(p: string, root: string): boolean {
  if (!p.includes('/.claude') || !within(p, root)) return false;
  const parts = p.split('/');
  for (let i = parts.indexOf('.claude'); i >= 0; i = parts.indexOf('.claude', i + 1)) {
    const inside = parts[i + 1];
    // The directory itself, written or removed as a whole, holds them all.
    if (inside === undefined || CLAUDE_HOST.has(inside)) return true;
  }
  return false;
}

/** Files inside the project that make tools run code later (direnv, npm's script-shell, yarnPath, pnpmfile). */
const STARTUP_IN_PROJECT = ['.envrc', '.npmrc', '.yarnrc', '.yarnrc.yml', '.pnpmfile.cjs'];
const SYSTEM = [
  '/etc',
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/boot',
  '/sys',
  '/proc',
  '/dev',
  '/var',
  '/opt',
  '/srv',
  '/snap',
  '/root',
  '/run',
  '/System',
  '/Library',
  '/Applications',
  '/private/etc',
];
/** Device files that swallow or pass output on: writing to them changes nothing. */
const SINKS = new Set(['/dev/null', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero', '/dev/full']);
const DEFAULT_TEMP = ['/tmp', '/var/tmp', '/dev/shm'];

/** Where the catalogue's scratch exemptions take a path for scratch by its name (shell.yaml temp-path). */
const SCRATCH_NAMES = [...DEFAULT_TEMP, '/private/tmp', '/var/folders', '/private/var/folders'];

/**
 * Whether the project lies in a temp directory (a sandbox or scratch repository kept under /tmp):
 * its files then look like scratch by their names, and are not.
 */
export function projectInTemp(project: ProjectPaths): boolean {
  return [...(project.temp ?? []), ...SCRATCH_NAMES].some(
    (t) => within(project.root, t) && project.root !== t,
  );
}

export function zoneOf(path: string, project: ProjectPaths): Zone {
  const zone = exactZone(path, project);
  if (zone === 'gate' || zone === 'host' || !FOLDABLE.test(path)) return zone;
  // On a case-insensitive file system (macOS's and Windows' defaults) `.CLAUDE/settings.json`,
  // `Tollgate.Config.yaml` and `.GIT/config` are the protected files themselves; Windows also drops a
  // name's trailing dots and spaces. Folded names only ever make a write more protected, never less.
  const folded = exactZone(foldPath(path), foldedProject(project));
  if (folded === 'gate' || folded === 'host') return folded;
  const plain = zone === 'project' || zone === 'temp';
  return plain && (folded === 'vcs' || folded === 'startup') ? folded : zone;
}

const FOLDED = new WeakMap<ProjectPaths, ProjectPaths>();
function foldedProject(project: ProjectPaths): ProjectPaths {
  let folded = FOLDED.get(project);
  if (folded === undefined) {
    folded = {
      root: foldPath(project.root),
      gate: project.gate.map(foldPath),
      ...(project.home !== undefined ? { home: foldPath(project.home) } : {}),
      ...(project.temp !== undefined ? { temp: project.temp.map(foldPath) } : {}),
      ...(project.gateNames !== undefined ? { gateNames: project.gateNames.map(foldPath) } : {}),
    };
    FOLDED.set(project, folded);
  }
  return folded;
}

function exactZone(path: string, project: ProjectPaths): Zone {
  if (path === '' || !posix.isAbsolute(path)) return 'unresolved';
  const p = posix.normalize(path);
  if (SINKS.has(p) || p.startsWith('/dev/fd/') || p.startsWith('/proc/self/fd/')) return 'sink';
  const { root, home } = project;
  if (touches(p, project.gate, root) || project.gateNames?.includes(posix.basename(p))) return 'gate';
  // The host's settings too (`rsync -a x/ .claude/`, `tar -x -C .claude`, `rm -rf .claude`).
  if (touches(p, joined(root, HOST_IN_PROJECT), root) || claudeHost(p, root)) return 'host';
  if (home && touches(p, joined(home, HOST_IN_HOME), home)) return 'host';
  if (p.split('/').includes('.git')) return 'vcs';
  if (STARTUP_IN_PROJECT.some((f) => posix.basename(p) === f)) return 'startup';
  if (within(p, root)) return 'project';
  if (home && within(p, home)) {
    const first = p.slice(home.length + 1).split('/')[0] ?? '';
    if (first.startsWith('.') || first === 'bin') return 'startup';
  }
  if ((project.temp ?? DEFAULT_TEMP).some((t) => within(p, t))) return 'temp';
  if (home && within(p, home)) return 'outside';
  if (SYSTEM.some((s) => within(p, s)) || p === '/') return 'system';
  return 'outside';
}

/** A glob character in a name: a pattern of names a program will write (`split`'s `PREFIX*`). */
const PATTERN = /[*?[]/;
/** Names protected wherever a pattern could write them, beside the gate's and host's own files. */
const PROBED = ['.git', '.claude', '.tollgate', '.bashrc', '.profile', '.gitconfig', '.ssh', '.config'];

/**
 * The zone of a pattern of written names (`DIR/PREFIX*`): the most protected zone of any name in DIR
 * it could be — the gate's and host's files, start-up files, `.git` — else the zone of DIR's files.
 */
export function zoneOfPattern(path: string, project: ProjectPaths): Zone {
  const name = posix.basename(path);
  if (!PATTERN.test(name)) return zoneOf(path, project);
  const dir = posix.dirname(path);
  let re: RegExp;
  try {
    re = new RegExp(
      `^${name
        .replace(/[.+^${}()|\\\]]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')
        .replace(/\[!/g, '[^')}$`,
      's',
    );
  } catch {
    return 'unresolved';
  }
  for (const candidate of protectedNamesIn(dir, project)) {
    if (!re.test(candidate)) continue;
    const zone = zoneOf(posix.join(dir, candidate), project);
    if (PROTECTED_ZONES.includes(zone)) return zone;
  }
  return zoneOf(path, project);
}

/**
 * Names in `dir` that may be protected (checked with zoneOf): the probed names, start-up files, the
 * gate's names, a `.claude` directory's host entries, and the entry in `dir` on the way to each of
 * the gate's and the host's own paths. For what a pattern or an archive could write there.
 */
export function protectedNamesIn(dir: string, project: ProjectPaths): Set<string> {
  return new Set([
    ...PROBED,
    ...STARTUP_IN_PROJECT,
    ...(project.gateNames ?? []),
    ...(posix.basename(dir) === '.claude' ? CLAUDE_HOST : []),
    ...[
      ...project.gate,
      ...joined(project.root, HOST_IN_PROJECT),
      ...(project.home ? joined(project.home, HOST_IN_HOME) : []),
    ].flatMap((g) => {
      // The protected path's entry in DIR: itself, or the directory on its way.
      if (!within(g, dir) || g === dir) return [];
      return [g.slice(dir === '/' ? 1 : dir.length + 1).split('/')[0] as string];
    }),
  ]);
}

/**
 * `p` is one of `paths` or below one, or a directory holding one (deleting or moving it takes the
 * file along) — but not `top` (the project root, the home directory) or above it, which hold
 * everything and are judged by the other rules.
 */
function touches(p: string, paths: readonly string[], top: string): boolean {
  return paths.some((t) => within(p, t) || (within(t, p) && !within(top, p)));
}

/** `names` joined to `dir`, kept per directory (a process sees few roots and homes, so few entries). */
function joined(dir: string, names: readonly string[]): readonly string[] {
  let byDir = JOINED.get(names);
  if (!byDir) {
    byDir = new Map();
    JOINED.set(names, byDir);
  }
  let paths = byDir.get(dir);
  if (!paths) {
    paths = names.map((n) => posix.join(dir, n));
    if (byDir.size >= 64) byDir.clear();
    byDir.set(dir, paths);
  }
  return paths;
}
const JOINED = new Map<readonly string[], Map<string, readonly string[]>>();

/** True when `path` is `dir` or lies below it. */
export function within(path: string, dir: string): boolean {
  const d = dir.length > 1 ? dir.replace(/\/+$/, '') : dir;
  return path === d || path.startsWith(d === '/' ? '/' : `${d}/`);
}
