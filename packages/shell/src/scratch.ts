// Where the agent writes without a gate: the temp directories, and the work tree it runs in. A path
// under /tmp that lies in the work tree (a project kept in /tmp), or that a link there leads out of
// (`ln -s ~/proj /tmp/l; rm -rf /tmp/l/src`), is not scratch, whatever its name says.
import { findTopLevel } from './git-config.js';
import type { Resolver } from './resolve.js';

const TOP_LEVEL = {};

/** The git work tree's top for where the command starts (looked up once a parse: each walks the parents). */
export function workTreeTop(res: Resolver): string | undefined {
  const cwd = res.ctx?.cwd;
  const files = res.files;
  return res.slot(TOP_LEVEL, () => ({ dir: cwd && files ? findTopLevel(files, cwd) : undefined })).dir;
}

/** Whether `path` (absolute) is `dir` or below it. */
export function inside(dir: string | undefined, path: string): boolean {
  return dir !== undefined && dir !== '' && (path === dir || path.startsWith(`${dir.replace(/\/+$/, '')}/`));
}

/** The temp directories: `/tmp`, `/var/tmp`, `/dev/shm` and the environment's TMPDIR. */
export function inTemp(res: Resolver, path: string): boolean {
  return ['/tmp', '/var/tmp', '/dev/shm', res.ctx?.env?.TMPDIR].some((dir) => inside(dir, path));
}

/**
 * A path written (resolved: links followed) that is no scratch although a temp directory's name may
 * be how the command spells it: outside the temp directories, or inside the work tree.
 */
export function notScratch(res: Resolver, path: string): boolean {
  return !inTemp(res, path) || inside(workTreeTop(res), path);
}
