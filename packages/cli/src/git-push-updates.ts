// What a push is about to do, from the lines git hands the pre-push hook on stdin
// (`<local ref> <local sha> <remote ref> <remote sha>`): each update is a deletion (local sha all
// zeros), a creation (remote sha all zeros), a fast-forward, or a force (the remote sha is not an
// ancestor of the local one, or that cannot be told because the remote commit is not here). The
// push is then written as the command that would make exactly these updates, refspec by refspec,
// so the rules judge what git will do even when the typed command does not show it.
import { shellLine } from '@tollgate/hooks';

export interface RefUpdate {
  localRef: string;
  localSha: string;
  remoteRef: string;
  remoteSha: string;
}

export type UpdateKind = 'delete' | 'create' | 'fast-forward' | 'force';

const SHA = /^[0-9a-f]{40}([0-9a-f]{24})?$/;
const ZERO = /^0+$/;

export type Parsed = { ok: true; updates: RefUpdate[] } | { ok: false; problem: string };

export function parsePushLines(text: string): Parsed {
  const updates: RefUpdate[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const words = line.split(' ');
    const [localRef, localSha, remoteRef, remoteSha] = words;
    if (
      words.length !== 4 ||
      !localRef ||
      !remoteRef ||
      !SHA.test(localSha ?? '') ||
      !SHA.test(remoteSha ?? '')
    )
      return {
        ok: false,
        problem: `line ${i + 1} of the pre-push input is not "<local ref> <sha> <remote ref> <sha>"`,
      };
    updates.push({ localRef, localSha: localSha as string, remoteRef, remoteSha: remoteSha as string });
  }
  return { ok: true, updates };
}

/** `isAncestor(a, b)`: true/false, or undefined when it cannot be told (the commit is not here). */
export function updateKind(
  u: RefUpdate,
  isAncestor: (a: string, b: string) => boolean | undefined,
): UpdateKind {
  if (ZERO.test(u.localSha)) return 'delete';
  if (ZERO.test(u.remoteSha)) return 'create';
  return isAncestor(u.remoteSha, u.localSha) === true ? 'fast-forward' : 'force';
}

const short = (ref: string) => (ref.startsWith('refs/heads/') ? ref.slice('refs/heads/'.length) : ref);

/** The refspec that makes this update: `:dst` deletes, `+src:dst` forces, `src:dst` otherwise. */
export function refspec(u: RefUpdate, kind: UpdateKind): string {
  if (kind === 'delete') return `:${short(u.remoteRef)}`;
  return `${kind === 'force' ? '+' : ''}${short(u.localRef)}:${short(u.remoteRef)}`;
}

/** `git push REMOTE SPEC...`: the command that makes exactly these updates. */
export function pushCommand(
  remote: string,
  updates: readonly { update: RefUpdate; kind: UpdateKind }[],
): string {
  return shellLine(['git', 'push', remote, ...updates.map(({ update, kind }) => refspec(update, kind))]);
}
