// `tollgate init git-hooks [--remove]`: points the repository's core.hooksPath at a hooks directory
// the gate owns, under this project's state directory (outside the work tree, inside the gate's zone:
// a hooked agent's write there is a write to the gate). Its pre-push, pre-commit and pre-rebase hooks
// ask the gate about the git command that runs them (git-hook.ts); every hook that the previous
// hooks directory (the old core.hooksPath, or .git/hooks) had is chained, so nothing of the user's is
// lost, and --remove puts the old setting back. The chained hooks run from a copy of that directory
// taken now, inside the gate's directory (chained/): the original sits in .git/ or the work tree,
// where a prediction (or nothing) lets an agent rewrite it, and a chained hook runs with the push.
// A person's command, like the rest of init; re-run it after changing the previous hooks.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { flag, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { gatePins, selfCommand } from '../gate-pins.js';
import {
  CLIENT_HOOKS,
  chainOnlyScript,
  GATED_HOOKS,
  GIT_HOOK_MARKER,
  gatedHookScript,
} from '../git-hook-script.js';
import { needPerson } from '../person-check.js';
import { isExecutableFile, realProgram } from '../real-program.js';
import { findConfig } from '../runtime.js';
import { canonicalPath, projectKey, projectStateDir } from '../state.js';
import { writeJson } from '../support.js';

interface Previous {
  /** The directory chained to: the old core.hooksPath, or the repository's own hooks directory. */
  chain: string;
  /** The repository-local core.hooksPath before install (null: unset), restored by --remove. */
  local_hooks_path: string | null;
}

export async function gitHooksInit(args: ParsedArgs, io: CommandIO): Promise<number> {
  const git = realProgram('git', io.env.PATH);
  if (git === undefined) throw new UsageError('git is not on PATH', 'install git, or check PATH');
  const run = (...a: string[]) => gitOut(git, io.cwd, a);
  const commonDir = run('rev-parse', '--git-common-dir');
  if (commonDir === undefined)
    throw new UsageError(`${io.cwd} is not in a git repository`, 'run it inside the repository to guard');
  const common = canonicalPath(resolve(io.cwd, commonDir));
  const top = run('rev-parse', '--show-toplevel') ?? io.cwd;
  const loaded = findConfig(io.cwd, io.env);
  const remove = flag(args, 'remove');
  needPerson(loaded, io, remove ? 'removing git hooks' : 'installing git hooks');
  const dir = join(projectStateDir(loaded.root, io.env), 'git-hooks', projectKey(common));
  const saved = join(dir, 'previous.json');
  const current = run('config', '--get', 'core.hooksPath');
  const ours = current !== undefined && canonicalPath(resolve(top, current)) === dir;
  if (remove) {
    if (!ours) throw new UsageError(`core.hooksPath is not tollgate's ${dir}`, 'nothing to remove');
    const previous = readPrevious(saved);
    if (previous?.local_hooks_path) run('config', '--local', 'core.hooksPath', previous.local_hooks_path);
    else run('config', '--local', '--unset', 'core.hooksPath');
    rmSync(dir, { recursive: true, force: true });
    if (flag(args, 'json')) writeJson(io, { removed: dir, hooks_path: previous?.local_hooks_path ?? null });
    else
      io.stdout.write(
        `removed tollgate's git hooks; core.hooksPath is ${previous?.local_hooks_path ?? 'unset'} again\n`,
      );
    return 0;
  }
  const previous: Previous = (ours ? readPrevious(saved) : undefined) ?? {
    chain: current !== undefined ? canonicalPath(resolve(top, current)) : join(common, 'hooks'),
    local_hooks_path: run('config', '--local', '--get', 'core.hooksPath') ?? null,
  };
  const pins = await gatePins(loaded, io.env);
  const self = selfCommand();
  mkdirSync(dir, { recursive: true, mode: 0o755 });
  for (const name of readdirSync(dir)) {
    const file = join(dir, name);
    if (name !== 'previous.json' && isFile(file) && readFileSync(file, 'utf8').includes(GIT_HOOK_MARKER))
      rmSync(file);
  }
  const copy = copyChain(previous.chain, join(dir, CHAINED_DIR));
  const chained = CLIENT_HOOKS.filter((h) => isExecutableFile(join(copy, h)));
  const hooks: Record<string, string> = {};
  for (const h of GATED_HOOKS) hooks[h] = gatedHookScript(h, self, pins, copy);
  for (const h of chained) hooks[h] ??= chainOnlyScript(h, copy);
  for (const [name, text] of Object.entries(hooks)) {
    writeFileSync(join(dir, name), text, { mode: 0o755 });
    chmodSync(join(dir, name), 0o755);
  }
  writeFileSync(saved, `${JSON.stringify(previous, null, 2)}\n`);
  if (run('config', '--local', 'core.hooksPath', dir) === undefined)
    throw new UsageError(
      `git config --local core.hooksPath ${dir} failed`,
      'check that the repository config is writable',
    );
  const result = { hooks_path: dir, gated: [...GATED_HOOKS], chained, chain: previous.chain, copy };
  if (flag(args, 'json')) writeJson(io, result);
  else
    io.stdout.write(
      `core.hooksPath -> ${dir}\n  gated: ${GATED_HOOKS.join(', ')}\n  chained to a copy of ${previous.chain} (${copy}, run after the gate): ${chained.join(', ') || '(none)'}\n` +
        '  note: git push --no-verify skips hooks; tollgate shim install git closes that (see README)\n',
    );
  return 0;
}

/** Where in the gate's hooks directory the copy of the previous hooks directory lives. */
const CHAINED_DIR = 'chained';

/**
 * A fresh copy of the previous hooks directory (every file, so a hook that sources a sibling, as
 * husky's do, still finds it), taken into the gate's zone; the directory it returns is what the
 * hooks chain to. Symlinks are copied as what they point to.
 */
function copyChain(from: string, to: string): string {
  rmSync(to, { recursive: true, force: true });
  mkdirSync(to, { recursive: true, mode: 0o755 });
  // Never the gate's own directory (a reinstall that lost previous.json): nothing of the user's is there.
  const own = dirname(to);
  if (existsSync(from) && from !== own && !from.startsWith(`${own}/`))
    cpSync(from, to, { recursive: true, dereference: true, force: true });
  return to;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function readPrevious(file: string): Previous | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const doc = JSON.parse(readFileSync(file, 'utf8')) as Previous;
    return typeof doc.chain === 'string' ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** git's trimmed stdout, or undefined when it fails (not a repository, key not set). */
function gitOut(git: string, cwd: string, args: string[]): string | undefined {
  try {
    return execFileSync(git, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}
