// The file system the hook's snapshot warm-up resolves commands against: a small repository held in
// memory (a .git directory with its config and an alias, a script, a home with a .gitconfig), so the
// code that reads git's configuration, finds programs and judges scripts is compiled into the
// snapshot without the build reading any file on the machine.
import type { FileView } from '@tollgate/shell';

export const WARM_ROOT = '/nonexistent/tollgate-warm';
export const WARM_HOME = `${WARM_ROOT}/home`;
/** Where the warm calls' gate is installed (nothing is there: it only names the gate's own files). */
export const WARM_INSTALL = '/nonexistent/tollgate-warm-install';

const TEXTS: Readonly<Record<string, string>> = {
  [`${WARM_ROOT}/.git/config`]:
    '[core]\n\trepositoryformatversion = 0\n\tbare = false\n' +
    '[remote "origin"]\n\turl = ../origin.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n' +
    '[alias]\n\tst = status --short\n',
  [`${WARM_ROOT}/.git/HEAD`]: 'ref: refs/heads/main\n',
  [`${WARM_ROOT}/scripts/check.sh`]:
    '#!/bin/sh\nset -e\ngit log --oneline -n 5 -- src\ngrep -rn "TODO" src | head -5\n' +
    'test -f build/out.js && wc -l build/out.js\n',
  [`${WARM_HOME}/.gitconfig`]: '[user]\n\tname = warm\n',
};

export function warmFiles(): FileView {
  const dirs = new Map<string, Set<string>>();
  for (const path of Object.keys(TEXTS)) {
    let child = path;
    for (let dir = parent(path); dir !== child; child = dir, dir = parent(dir)) {
      const entries = dirs.get(dir) ?? new Set<string>();
      entries.add(child.slice(dir === '/' ? 1 : dir.length + 1));
      dirs.set(dir, entries);
    }
  }
  const text = (path: string) => (Object.hasOwn(TEXTS, path) ? TEXTS[path] : undefined);
  return {
    readdir: (dir) => (dirs.has(dir) ? [...(dirs.get(dir) as Set<string>)] : undefined),
    realpath: (path) => (dirs.has(path) || text(path) !== undefined ? path : undefined),
    readText: (path, maxBytes) => {
      const t = text(path);
      return t !== undefined && t.length <= maxBytes ? t : undefined;
    },
    readHead: (path, maxBytes) => text(path)?.slice(0, maxBytes),
  };
}

function parent(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}
