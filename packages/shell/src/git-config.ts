// git's configuration files as git would read them for a command run in a directory: the system
// file, the user's (~/.gitconfig, $XDG_CONFIG_HOME/git/config), the repository's (found upward from
// the directory, through a `.git` file and `commondir` for worktrees) and their include.path /
// includeIf files (taken as included whatever their condition). Used at decision time to follow the
// aliases a repository defines; a file that exists but cannot be read is reported, so an alias it may
// define is not silently missed.
import { posix } from 'node:path';
import type { FileView } from './files.js';

const MAX_BYTES = 64 * 1024;
const MAX_INCLUDE_DEPTH = 8;
const MAX_PARENTS = 64;

export interface GitConfigSource {
  files: FileView;
  /** Absolute directory git runs in (after `-C`). */
  cwd: string;
  home?: string | undefined;
  /** Environment given to the command (`GIT_DIR`, `GIT_CONFIG_GLOBAL`, `XDG_CONFIG_HOME`, …). */
  env: ReadonlyMap<string, string>;
  /** `--git-dir` given on the command line. */
  gitDir?: string | undefined;
}

export interface GitFileConfig {
  /** `key=value` pairs in the order git reads them (later wins); keys lower-cased except subsections. */
  entries: string[];
  /** Some config file exists but could not be read (too large, unreadable, an include loop). */
  unreadable: boolean;
  /**
   * Files an include.path / includeIf names outside a `.git` directory (a shared config the project
   * commits): their text is configuration git obeys, as a script is code the shell runs.
   */
  includes?: string[];
}

export function readGitConfig(src: GitConfigSource): GitFileConfig {
  const out: GitFileConfig = { entries: [], unreadable: false };
  const { env } = src;
  const home = env.get('HOME') ?? src.home;
  const expand = (p: string, base: string) =>
    p.startsWith('~/') && home ? posix.join(home, p.slice(2)) : posix.resolve(base, p);
  if (env.get('GIT_CONFIG_NOSYSTEM') === undefined)
    readFile(src.files, env.get('GIT_CONFIG_SYSTEM') ?? '/etc/gitconfig', out, expand, 0);
  const global = env.get('GIT_CONFIG_GLOBAL');
  if (global !== undefined) readFile(src.files, expand(global, src.cwd), out, expand, 0);
  else {
    const xdg = env.get('XDG_CONFIG_HOME') ?? (home ? posix.join(home, '.config') : undefined);
    if (xdg) readFile(src.files, posix.join(xdg, 'git', 'config'), out, expand, 0);
    if (home) readFile(src.files, posix.join(home, '.gitconfig'), out, expand, 0);
  }
  const explicit = env.get('GIT_DIR') ?? src.gitDir;
  const gitDir =
    explicit !== undefined ? posix.resolve(src.cwd, explicit) : findGitDir(src.files, src.cwd, out);
  if (gitDir === undefined) return out;
  const commondir = src.files.readText(posix.join(gitDir, 'commondir'), 4096)?.trim();
  const common = commondir ? posix.resolve(gitDir, commondir) : gitDir;
  readFile(src.files, posix.join(common, 'config'), out, expand, 0);
  readFile(src.files, posix.join(gitDir, 'config.worktree'), out, expand, 0);
  return out;
}

/** The work tree's top directory (`git rev-parse --show-toplevel`): where `.git` is, upward from cwd. */
export function findTopLevel(files: FileView, cwd: string): string | undefined {
  let dir = posix.resolve(cwd);
  for (let k = 0; k < MAX_PARENTS; k++) {
    if (files.realpath(posix.join(dir, '.git')) !== undefined) return files.realpath(dir) ?? dir;
    const parent = posix.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/**
 * The repository's git directory, found as git finds it: upward from cwd, at each directory its
 * `.git` (a directory, or a file saying `gitdir: PATH`), else the directory itself when it is a
 * bare repository (`git init --bare fake` inside the project: `git -C fake push` reads fake/config,
 * which the session may have written, not the project's).
 */
export function findGitDir(files: FileView, cwd: string, out: GitFileConfig): string | undefined {
  let dir = posix.resolve(cwd);
  for (let k = 0; k < MAX_PARENTS; k++) {
    const dotGit = posix.join(dir, '.git');
    if (files.readdir(dotGit) !== undefined) return dotGit;
    if (files.realpath(dotGit) !== undefined) {
      const text = files.readText(dotGit, 4096);
      const m = text === undefined ? null : /^gitdir:\s*(.+?)\s*$/m.exec(text);
      if (m) return posix.resolve(dir, m[1] as string);
      out.unreadable = true;
      return undefined;
    }
    if (isGitDirectory(files, dir)) return dir;
    const parent = posix.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}

/** What git's is_git_directory looks for: HEAD, objects and refs side by side. */
function isGitDirectory(files: FileView, dir: string): boolean {
  const names = files.readdir(dir);
  return (names?.includes('HEAD') && names.includes('objects') && names.includes('refs')) === true;
}

function readFile(
  files: FileView,
  path: string,
  out: GitFileConfig,
  expand: (p: string, base: string) => string,
  depth: number,
): void {
  if (depth > MAX_INCLUDE_DEPTH) {
    out.unreadable = true;
    return;
  }
  const text = files.readText(path, MAX_BYTES);
  if (text === undefined) {
    if (files.realpath(path) !== undefined) out.unreadable = true;
    return;
  }
  for (const [key, value] of parseGitConfig(text)) {
    out.entries.push(`${key}=${value}`);
    if (key === 'include.path' || /^includeif\..*\.path$/.test(key)) {
      const included = expand(value, posix.dirname(path));
      if (!included.split('/').includes('.git')) {
        out.includes ??= [];
        out.includes.push(included);
      }
      readFile(files, included, out, expand, depth + 1);
    }
  }
}

/** `[section "sub"] key = value` lines as `section.sub.key` / value pairs (section and key lower-cased). */
export function parseGitConfig(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  let section = '';
  const lines = text.split('\n');
  for (let n = 0; n < lines.length; n++) {
    let line = (lines[n] as string).replace(/\r$/, '');
    const header = /^\s*\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      const name = (header[1] as string).toLowerCase();
      section = header[2] !== undefined ? `${name}.${(header[2] as string).replace(/\\(.)/g, '$1')}` : name;
      line = header[3] as string;
    }
    const kv = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*(=(.*))?$/.exec(line);
    if (!kv || section === '') continue;
    let raw = kv[3];
    // A value continues on the next line after a backslash outside quotes.
    while (raw !== undefined && /(^|[^\\])(\\\\)*\\$/.test(raw) && n + 1 < lines.length) {
      raw = raw.slice(0, -1) + (lines[++n] as string).replace(/\r$/, '');
    }
    out.push([
      `${section}.${(kv[1] as string).toLowerCase()}`,
      raw === undefined ? 'true' : configValue(raw),
    ]);
  }
  return out;
}

function configValue(raw: string): string {
  let value = '';
  let quoted = false;
  let pending = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i] as string;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '#' || c === ';')) break;
    else if (c === '\\') {
      const next = raw[++i] ?? '';
      value += pending + (next === 'n' ? '\n' : next === 't' ? '\t' : next === 'b' ? '\b' : next);
      pending = '';
    } else if (!quoted && (c === ' ' || c === '\t')) pending += ' ';
    else {
      value += (value === '' ? '' : pending) + c;
      pending = '';
    }
  }
  return value;
}
