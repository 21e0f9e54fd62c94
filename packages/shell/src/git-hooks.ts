// The hooks a git command may run. A hook is a script git runs by itself (pre-commit before a
// commit, pre-push before a push, reference-transaction on any ref update), from `core.hooksPath` or
// the repository's `hooks` directory: `git commit` runs whatever the session wrote into
// `.husky/pre-commit` (or `.githooks/`) just as `bash .husky/pre-commit` would. Writes into `.git`
// are gated by zone; a hooks directory in the work tree is an ordinary project directory. So the
// hook files a command may run are listed with its scripts (ShellFacts.scripts), and core refuses
// the command when the session wrote one of them since it last read it. The files of the hook
// managers those hooks start (pre-commit, lefthook, lint-staged) are listed with them.
import { posix } from 'node:path';
import type { FileView } from './files.js';
import { findGitDir } from './git-config.js';

/** The `via` of a command a git hook runs: git runs it, not the command's author. */
export const HOOK_VIA = 'git hook';

/** Whether git, not the command itself, runs this segment (a hook's own command). */
export function ranByHook(segment: { via: readonly string[] }): boolean {
  return segment.via.some((v) => v.startsWith(`${HOOK_VIA} `));
}

/** githooks(5): the names git runs. */
export const HOOK_NAMES: ReadonlySet<string> = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'post-index-change',
]);

/**
 * Subcommands that only read: they write no ref and no index, so no hook runs. Every other
 * subcommand may (a commit, a merge, a checkout, a push; `reference-transaction` on any ref update,
 * `post-index-change` when the index is written, `pre-auto-gc` from the many that run `gc --auto`).
 */
const READ_ONLY = new Set([
  'log',
  'show',
  'diff',
  'rev-parse',
  'rev-list',
  'ls-files',
  'ls-tree',
  'ls-remote',
  'cat-file',
  'describe',
  'shortlog',
  'blame',
  'grep',
  'help',
  'version',
  'for-each-ref',
  'show-ref',
  'var',
  'check-ignore',
  'name-rev',
  'whatchanged',
]);

/** Configuration files of the hook managers a hook starts, at the top of the work tree. */
const MANAGER_FILES = [
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  'lefthook.yml',
  'lefthook.yaml',
  'lefthook.toml',
  'lefthook.json',
  'lefthook.jsonc',
  '.lefthook.yml',
  '.lefthook.yaml',
  '.lefthook.toml',
  '.lefthook.json',
  '.lefthook.jsonc',
  '.config/lefthook.yml',
  '.config/lefthook.yaml',
  '.config/lefthook.toml',
  '.config/lefthook.json',
  'lefthook-local.yml',
  'lefthook-local.yaml',
  '.lefthook-local.yml',
  '.lefthook-local.yaml',
  '.huskyrc',
  '.huskyrc.json',
  '.huskyrc.js',
  '.huskyrc.cjs',
  'husky.config.js',
  '.lintstagedrc',
  '.lintstagedrc.json',
  '.lintstagedrc.yaml',
  '.lintstagedrc.yml',
  '.lintstagedrc.js',
  '.lintstagedrc.cjs',
  '.lintstagedrc.mjs',
  'lint-staged.config.js',
  'lint-staged.config.cjs',
  'lint-staged.config.mjs',
  '.simple-git-hooks.json',
  '.simple-git-hooks.js',
  '.simple-git-hooks.cjs',
];

/** Directories whose files the hook managers run: lefthook's scripts, husky's hooks. */
const MANAGER_DIRS = ['.lefthook', '.lefthook-local', '.husky'];

/** Whether a written path is one a hook run may run: a hook's name, a hook manager's file or script. */
export function isHookFile(path: string): boolean {
  const name = posix.basename(path);
  if (HOOK_NAMES.has(name) || MANAGER_BASENAMES.has(name)) return true;
  return path.split('/').some((part) => MANAGER_DIRS.includes(part));
}

const MANAGER_BASENAMES = new Set(MANAGER_FILES.map((f) => posix.basename(f)));

/** Whether `git SUB` may run a hook. */
export function mayRunHooks(sub: string | undefined): boolean {
  return sub !== undefined && !READ_ONLY.has(sub);
}

/**
 * Absolute paths of the hook files (and hook-manager files) a git command run in `cwd` may run:
 * those that exist. `hooksPath` is the last `core.hooksPath` git reads, if any; `gitDir` a
 * `--git-dir`/`GIT_DIR` the command names.
 */
export function hookFiles(
  files: FileView,
  cwd: string,
  where: { hooksPath?: string | undefined; gitDir?: string | undefined; home?: string | undefined },
): string[] {
  const { hooksPath, gitDir, home } = where;
  const dir =
    gitDir !== undefined
      ? posix.resolve(cwd, gitDir)
      : findGitDir(files, cwd, { entries: [], unreadable: false });
  if (dir === undefined) return [];
  const commondir = files.readText(posix.join(dir, 'commondir'), 4096)?.trim();
  const common = commondir ? posix.resolve(dir, commondir) : dir;
  // The work tree's top: where the `.git` found upward lies (a relative hooksPath is taken from there).
  const top = gitDir !== undefined ? cwd : workTreeTop(files, cwd);
  const hooksDir =
    hooksPath === undefined || hooksPath === ''
      ? posix.join(common, 'hooks')
      : posix.resolve(
          top,
          hooksPath.startsWith('~/') && home ? posix.join(home, hooksPath.slice(2)) : hooksPath,
        );
  const out: string[] = [];
  const hooks = (files.readdir(hooksDir) ?? []).filter((name) => HOOK_NAMES.has(name));
  for (const name of hooks) out.push(posix.join(hooksDir, name));
  // husky: v9 points hooksPath at `.husky/_`, whose stubs run `.husky/_/h`, which runs
  // `.husky/NAME`; v4–8 at `.husky`, whose hooks source `.husky/_/husky.sh`. Every file of the
  // `_` directory is run by the hooks.
  if (hooksPath !== undefined && hooks.length > 0) {
    const inside = posix.basename(hooksDir) === '_';
    const helpers = inside ? hooksDir : posix.join(hooksDir, '_');
    for (const name of files.readdir(helpers) ?? []) out.push(posix.join(helpers, name));
    if (inside) {
      const parent = posix.dirname(hooksDir);
      for (const name of files.readdir(parent) ?? [])
        if (HOOK_NAMES.has(name)) out.push(posix.join(parent, name));
    }
  }
  if (out.length > 0) {
    for (const name of MANAGER_FILES) {
      const path = posix.join(top, name);
      if (files.realpath(path) !== undefined) out.push(path);
    }
    // lefthook runs the scripts in `.lefthook/HOOK/` (and `.lefthook-local/HOOK/`).
    for (const dir of ['.lefthook', '.lefthook-local'])
      for (const hook of files.readdir(posix.join(top, dir)) ?? [])
        if (HOOK_NAMES.has(hook))
          for (const script of files.readdir(posix.join(top, dir, hook)) ?? [])
            out.push(posix.join(top, dir, hook, script));
    // lint-staged, simple-git-hooks, husky v4 and pre-commit read their settings from package.json too.
    const manifest = posix.join(top, 'package.json');
    const text = files.readText(manifest, 1024 * 1024);
    if (text !== undefined && /"(lint-staged|simple-git-hooks|husky|pre-commit|pre-push)"\s*:/.test(text))
      out.push(manifest);
  }
  return [...new Set(out)];
}

/** The directory holding the `.git` found upward from `cwd` (cwd itself when there is none). */
function workTreeTop(files: FileView, cwd: string): string {
  let dir = posix.resolve(cwd);
  for (;;) {
    if (files.realpath(posix.join(dir, '.git')) !== undefined) return dir;
    const parent = posix.dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}
