// Remotes the session named itself. A push to a remote by name passes because the name leads where
// the person configured it; a remote the session added or pointed elsewhere (`git remote add evil
// URL`, `set-url`, `rename x evil`) leads where the agent chose, and `git push evil` is then a push
// to a URL by another spelling. The command that names one lists it in `defines`
// (`git-remote:TOP:NAME`), which core records as the session's write when the call passes; a push
// relies on its remote's name (`relies_on`), so core refuses it if the session ever defined it.
// Within one command, a push to a remote the command itself names is refused here.
import { findTopLevel } from './git-config.js';
import type { Resolver } from './resolve.js';
import { noteReliedOn } from './scripts.js';

/** The remotes this parse's commands define (a Resolver slot key). */
const DEFINED = {};

const key = (top: string, name: string) => `git-remote:${top}:${name.toLowerCase()}`;

function defined(res: Resolver): Set<string> {
  return res.slot(DEFINED, () => new Set<string>());
}

/** The remotes this parse's commands define, as keys. */
export function definedRemotes(res: Resolver): string[] {
  return [...(res.peek<Set<string>>(DEFINED) ?? [])];
}

/**
 * The remote names `git remote VERB ARGS` (ARGS after the verb, options removed) makes lead
 * somewhere new: add NAME, set-url NAME, rename OLD NEW (NEW).
 */
export function remotesNamed(verb: string | undefined, args: readonly string[]): string[] {
  if (verb === 'add' || verb === 'set-url') return args.slice(0, 1);
  if (verb === 'rename') return args.slice(1, 2);
  return [];
}

/** Records the remotes a command defines in the repository where it runs (`cwd`). */
export function noteRemotesDefined(res: Resolver, cwd: string | undefined, names: readonly string[]): void {
  const top = cwd && res.files ? findTopLevel(res.files, cwd) : undefined;
  if (top === undefined) return;
  for (const name of names) defined(res).add(key(top, name));
}

/**
 * Records the remote a clone makes (`origin`, or `-o NAME`) in the directory it clones into: the
 * URL was the command's choice, and a push from the clone goes there (`git clone URL c && git -C c
 * push origin …`).
 */
export function noteCloneRemote(res: Resolver, dir: string, name: string): void {
  defined(res).add(key(dir, name));
}

/**
 * A push to the remote `name` relies on that name: noted for core; true when this very command
 * defined it (the push goes where the command chose).
 */
export function pushRelies(res: Resolver, cwd: string | undefined, name: string): boolean {
  if (cwd === undefined || !res.files) return false;
  const top = findTopLevel(res.files, cwd);
  if (top !== undefined) noteReliedOn(res, key(top, name));
  // A clone this same command makes is not there yet: its directory is where the push runs.
  return (top !== undefined && defined(res).has(key(top, name))) || defined(res).has(key(cwd, name));
}
