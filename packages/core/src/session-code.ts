// The session's code a test runner loads: `pytest` runs every test, conftest and module they import,
// none of it read by the gate, so a test file the agent wrote could force-push when the suite runs
// (the two-step attack through a runner instead of `bash s.sh`). What the session wrote below where
// the runner loads code (ShellFacts.loads_code) is read now and judged by what it can do: its
// literal shell calls become commands of the call, judged by the same rules; any other capability
// (processes, deletion, code built at run time) makes the call unknown-dynamic. The person's own
// code stays the project's, as before: only what the session wrote is held to this.
import {
  type FileView,
  judgeSessionCode,
  parseShell,
  type SessionCodeLanguage,
  type ShellFacts,
  sessionCodeLanguage,
} from '@tollgate/shell';
import type { NormalisedCall } from './classify.js';
import type { Store } from './ports.js';
import { type WriteScope, writesOfShell } from './writes.js';

export const SESSION_CODE = 'session_written_code';

/** Most session-written files judged for one call; more is judged unknown as a whole. */
export const MAX_SESSION_CODE_FILES = 32;
/** Largest session-written file read; a larger one is unknown-dynamic. */
const MAX_CODE_BYTES = 256 * 1024;
/** Most directory entries walked below trees the session wrote whole (`cp -r`, an unpacked archive). */
const MAX_TREE_ENTRIES = 512;
/** Not the project's code a runner loads as the session's: installed packages, git's own files, caches. */
const NOT_PROJECT_CODE =
  /\/(?:node_modules|\.git|__pycache__|site-packages|dist-packages|\.venv|venv)(?:\/|$)/;

type Loads = NonNullable<ShellFacts['loads_code']>;

/** The languages a runner loads below `path`'s directories. */
function languagesAt(loads: Loads, path: string): Set<SessionCodeLanguage> {
  const found = new Set<SessionCodeLanguage>();
  for (const { language, dir } of loads) if (dir === '/' || path.startsWith(`${dir}/`)) found.add(language);
  return found;
}

/**
 * The code files below the trees the session wrote whole, found by walking them (bounded); null when
 * a bound was hit or a directory could not be listed.
 */
function treeFiles(files: FileView, tree: string): string[] | null {
  const found: string[] = [];
  const queue = [tree.replace(/\/$/, '')];
  let entries = 0;
  while (queue.length > 0) {
    const dir = queue.shift() as string;
    if (NOT_PROJECT_CODE.test(`${dir}/`)) continue;
    const names = files.readdir(dir);
    if (names === undefined) {
      // Gone is nothing to run; a directory that is there and cannot be listed hides what it holds.
      if (files.realpath(dir) === undefined && !files.exhausted) continue;
      return null;
    }
    for (const name of names) {
      if (++entries > MAX_TREE_ENTRIES) return null;
      const path = `${dir}/${name}`;
      if (sessionCodeLanguage(path) !== undefined) found.push(path);
      else if (files.readdir(path) !== undefined) queue.push(path);
    }
  }
  return found;
}

/**
 * The call with what the session's code in the runner's reach can do added: literal shell calls as
 * segments (via `session-code:PATH`), capabilities and anything unreadable as dynamic constructs;
 * the call itself when nothing was found.
 */
export async function withSessionCode(
  store: Store,
  session: string,
  normalised: NormalisedCall,
  scope: WriteScope | undefined,
): Promise<NormalisedCall> {
  const facts = normalised.facts;
  const loads = facts?.loads_code ?? [];
  const files = scope?.context.files;
  if (!facts || loads.length === 0 || !files) return normalised;
  const written = await store.writtenUnder(
    session,
    [...new Set(loads.map((l) => l.dir))],
    MAX_SESSION_CODE_FILES + 1,
  );
  if (written.length === 0) return normalised;
  // Reading these is a step of its own: the parse's file-system bounds count from zero again, so
  // a long command does not leave the session's files unread (and the call unknown) for want of them.
  files.begin?.();
  const dynamic: ShellFacts['dynamic'] = [];
  const segments: ShellFacts['segments'] = [];
  const unknown = (path: string, why: string) =>
    dynamic.push({ kind: SESSION_CODE, text: `${path.slice(0, 300)}: ${why}` });
  if (written.length > MAX_SESSION_CODE_FILES)
    unknown(loads[0]?.dir ?? '/', `more than ${MAX_SESSION_CODE_FILES} files this session wrote are there`);
  const candidates: string[] = [];
  /** Written by a background job: absent now, it may land before the runner loads it. */
  const pending = new Set(written.filter((w) => w.pending).map((w) => w.path));
  for (const { path } of written.slice(0, MAX_SESSION_CODE_FILES)) {
    if (NOT_PROJECT_CODE.test(path)) continue;
    if (!path.endsWith('/')) {
      candidates.push(path);
      continue;
    }
    // A background job still writing into a directory may put any file there after this look.
    if (pending.has(path)) {
      unknown(path, 'a background job of this session writes into it and may not be done');
      continue;
    }
    const below = treeFiles(files, path);
    if (below === null) unknown(path, 'a tree this session wrote whole, too large to read');
    else candidates.push(...below.slice(0, MAX_SESSION_CODE_FILES));
  }
  for (const path of [...new Set(candidates)].slice(0, MAX_SESSION_CODE_FILES)) {
    const language = sessionCodeLanguage(path);
    if (language === undefined || !languagesAt(loads, path).has(language)) continue;
    if (files.realpath(path) === undefined) {
      // Past the file view's bounds nothing can be told: not "removed".
      if (files.exhausted) unknown(path, 'cannot be read (a bound of the file view was hit)');
      else if (pending.has(path))
        unknown(path, 'a background job of this session writes it and may not be done');
      continue; // removed since: nothing of it runs
    }
    const text = files.readText(path, MAX_CODE_BYTES);
    if (text === undefined) {
      unknown(path, 'cannot be read (too large, not a file, or a bound was hit)');
      continue;
    }
    const judged = judgeSessionCode(language, text);
    if (judged.capability !== undefined) unknown(path, judged.capability);
    for (const command of judged.commands) {
      const parsed = parseShell(command, { context: scope.context });
      const via = `session-code:${path.slice(0, 300)}`;
      segments.push(...parsed.segments.map((s) => ({ ...s, via: [via, ...s.via] })));
      dynamic.push(...parsed.dynamic);
    }
  }
  if (dynamic.length === 0 && segments.length === 0) return normalised;
  const merged: ShellFacts = {
    ...facts,
    segments: [...facts.segments, ...segments],
    dynamic: [...facts.dynamic, ...dynamic],
  };
  const writes = segments.length > 0 ? writesOfShell(merged, scope) : normalised.writes;
  return { ...normalised, facts: merged, ...(writes !== undefined ? { writes } : {}) };
}
