// The hook files `tollgate init git-hooks` writes into its hooks directory (core.hooksPath): the
// gated ones hand over to `tollgate git-hook NAME`, with the gate's pins and the hook directory they
// chain to; the others only run the hook that was there before, so a user's own hooks keep working.
import { shellWord } from '@tollgate/hooks';
import { exportLines } from './gate-pins.js';

export const GIT_HOOK_MARKER = '# tollgate-git-hook v1';
/** Hooks the gate speaks in: it judges the git command that runs them. */
export const GATED_HOOKS = ['pre-push', 'pre-commit', 'pre-rebase'] as const;
export type GatedHook = (typeof GATED_HOOKS)[number];
/** Client-side hooks git runs from core.hooksPath, chained when the previous directory has them. */
export const CLIENT_HOOKS = [
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
  'post-rewrite',
  'pre-auto-gc',
  'post-index-change',
  'push-to-checkout',
  'sendemail-validate',
  'reference-transaction',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
] as const;

export const CHAIN_ENV = 'TOLLGATE_GIT_HOOKS_CHAIN';

export function gatedHookScript(
  hook: GatedHook,
  self: readonly string[],
  pins: Record<string, string>,
  chain: string,
): string {
  return (
    `#!/bin/sh\n${GIT_HOOK_MARKER}: ${hook}\n` +
    '# Written by `tollgate init git-hooks`: the gate judges the git command first. Reinstall, do not edit.\n' +
    exportLines({ ...pins, [CHAIN_ENV]: chain }, shellWord) +
    `exec ${[...self, 'git-hook', hook].map(shellWord).join(' ')} "$@"\n`
  );
}

/** A hook the gate does not speak in: run the one that was configured before, if it is there. */
export function chainOnlyScript(hook: string, chain: string): string {
  const prev = shellWord(`${chain}/${hook}`);
  return (
    `#!/bin/sh\n${GIT_HOOK_MARKER}: ${hook} (chain only)\n` +
    `if [ -x ${prev} ]; then exec ${prev} "$@"; fi\nexit 0\n`
  );
}
