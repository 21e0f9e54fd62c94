// The two-step attack — write a script, then run it — is closed by remembering what the session
// wrote: every passed call's writes are recorded, an attested read of a file (the Read tool, `cat
// FILE`) clears it, and a command that would run a file the session wrote since it last read it is
// unknown-dynamic (the shell facts name the files a command runs as scripts). Reading the file shows
// the agent, and the transcript, what will run.
import type { Source } from '@tollgate/contracts';
import { type FileView, foldPath, matchesIndexNow, parseShell, resolvePath } from '@tollgate/shell';
import type { Classification, NormalisedCall } from './classify.js';
import type { Store } from './ports.js';
import type { Write, WriteScope } from './writes.js';

/** The dynamic-construct kind a session-written script adds to the facts (matched by shell.script.unread-write). */
export const SESSION_WRITTEN = 'session_written_script';
/** The kind a file the command relies on to pass adds when the session ever wrote it (shell.relied.session-written). */
export const SESSION_WRITTEN_RELIED = 'session_written_relied';

/** Tools whose observation shows a file's contents: the argument naming it. */
const READ_TOOLS: Record<string, string> = { Read: 'file_path', read_file: 'path', read_text_file: 'path' };
/** Shell programs that print a file's contents. */
const READERS = new Set(['cat', 'bat', 'batcat', 'head', 'tail', 'less', 'more', 'nl', 'view']);

/**
 * The keys a file event is recorded under (Store.recordFileEvents): each path as given and as a
 * case-insensitive file system compares it (the shell's foldPath, under its own prefix). On macOS
 * and Windows `MAKEFILE` is the Makefile `make` runs; a script is asked under both keys (withSessionScripts), so a write under
 * either spelling counts and a read clears only the key it shares.
 */
export function fileEventKeys(paths: readonly string[]): string[] {
  return [...paths, ...paths.map(foldedKey)];
}

/** A path's folded form, under a key no absolute path can be (so writtenUnder lists no alias). */
const foldedKey = (path: string): string => `folded:${foldPath(path)}`;

/** Of `paths`, those the store answered for under their own key or their folded one. */
function answered(paths: readonly string[], hits: readonly string[]): string[] {
  const hit = new Set(hits);
  return paths.filter((path) => hit.has(path) || hit.has(foldedKey(path)));
}

/** A path as the directory holding what lies below it: one trailing slash. */
const asDirectory = (path: string): string => `${path.replace(/\/+$/, '')}/`;

/**
 * Absolute paths a passed call wrote (resolved writes only; an unresolved one names no file). A tree
 * (`cp -r`, `tar -x -C DIR`, `rsync a/ DIR/`) is recorded as `DIR/` as well: every file below it is
 * written by the call although the call names none of them.
 */
export function writtenPaths(classification: Classification): string[] {
  // A chmod or touch changes no contents: what the agent read is still what will run. A removal or
  // an empty directory leaves nothing to run or to rely on.
  const changed = (classification.writes ?? []).filter(
    (w) => w.path.startsWith('/') && !w.metadataOnly && !w.leavesNothing,
  );
  const out = new Set<string>();
  for (const w of changed) {
    out.add(w.path);
    if (w.tree && w.path !== '/') out.add(asDirectory(w.path));
  }
  // Names the command defines that later commands rely on (a git remote it added): not files, but
  // what the session made them lead to is as much its own as a file it wrote.
  for (const name of classification.facts?.defines ?? []) out.add(name);
  return [...out];
}

/**
 * Of what a passed call wrote, the paths a background job's write may still reach after the call
 * returns (`(sleep 3; cp evil s.sh) &`, nohup, setsid, at: Write.async). A read made later may come
 * before the write lands, so these are recorded as pending (Store recordFileEvents 'pending'):
 * written, and unread, for the rest of the session. Each also as a tree: the target may be a
 * directory by the time the job writes (`cp x scripts` after a `mkdir scripts`).
 */
export function pendingPaths(classification: Classification): string[] {
  const later = (classification.writes ?? []).filter(
    (w) => w.async && w.path.startsWith('/') && !w.metadataOnly && !w.leavesNothing,
  );
  const out = new Set<string>();
  for (const w of later) {
    out.add(w.path);
    if (w.path !== '/') out.add(asDirectory(w.path));
  }
  return [...out];
}

/**
 * A file the session made, recorded beside its writes (Store.recordFileEvents 'write') under a key no
 * absolute path can be: that the session wrote to a file does not make it the session's (an append to
 * the person's draft, then its removal), that it made it where nothing was does.
 */
const createdKey = (path: string): string => `created:${path}`;
/**
 * A tracked file the session wrote while it held what the index holds: every change it has since is
 * the session's own (an uncommitted change of the person's was not there to lose). Same table.
 */
const cleanKey = (path: string): string => `clean:${path}`;

/** Tracked files asked whether they match the index, per call (each costs a git process). */
const MAX_CLEAN_CHECKS = 8;

/**
 * Of what a passed call writes (writtenPaths), the files that are not there at decision time (a Write
 * of a new file, `> out.txt` where there was none): the session makes them; and the tracked files
 * that hold what the index holds: what changes in them from now on is the session's. Keys for
 * Store.recordFileEvents.
 */
export function createdKeys(written: readonly string[], view: SessionFileView | undefined): string[] {
  if (view === undefined) return [];
  const keys: string[] = [];
  let asked = 0;
  for (const path of written) {
    if (!path.startsWith('/')) continue;
    // A tree the call makes (`cp -r kit new`) as `DIR/` too: what lands below it is the session's.
    if (!view.exists(path.replace(/(.)\/+$/, '$1'))) keys.push(createdKey(path));
    else if (
      !path.endsWith('/') &&
      view.matchesIndex &&
      asked++ < MAX_CLEAN_CHECKS &&
      view.matchesIndex(path)
    )
      keys.push(cleanKey(path));
  }
  return keys;
}

/**
 * The call's writes that delete or replace a file git cannot give back (ShellSegment.loses_unversioned:
 * untracked, or tracked with changes the index lacks) and that this session did not make — nor found
 * matching the index when it first wrote it — marked `unversioned` (fs.unversioned.lost): what the
 * session made or changed itself is its own to remove or replace, the person's uncommitted work is
 * not (written to or not).
 */
export async function withUnversionedLosses(
  store: Store,
  session: string,
  normalised: NormalisedCall,
): Promise<NormalisedCall> {
  const candidates = new Set<string>();
  for (const segment of normalised.facts?.segments ?? [])
    for (const path of segment.loses_unversioned ?? []) candidates.add(path);
  const writes = normalised.writes;
  if (candidates.size === 0 || writes === undefined) return normalised;
  const made = await store.writtenBySession(session, [
    ...[...candidates].map(createdKey),
    ...[...candidates].map(cleanKey),
  ]);
  const own = new Set(made.map((key) => key.slice(key.indexOf(':') + 1)));
  const person = [...candidates].filter((path) => !own.has(path));
  // A tree copy's write is the directory it lands in: the files below it it overwrites are its losses.
  const covers = (w: Write, path: string) =>
    w.path === path || (w.tree === true && path.startsWith(asDirectory(w.path)));
  const lost = (w: Write) => w.zone === 'project' && person.some((path) => covers(w, path));
  if (!writes.some(lost)) return normalised;
  return { ...normalised, writes: writes.map((w) => (lost(w) ? { ...w, unversioned: true } : w)) };
}

/** The classification of a call the host runs detached: each of its writes may land at any later time. */
export function detachedWrites(classification: Classification): Classification {
  const writes = classification.writes;
  if (writes === undefined || writes.length === 0) return classification;
  return { ...classification, writes: writes.map((w) => ({ ...w, async: true })) };
}

/** Absolute paths whose contents an observed read showed. */
export function readPaths(source: Source, scope: WriteScope | undefined): string[] {
  if (typeof source !== 'string') {
    const key = Object.hasOwn(READ_TOOLS, source.tool) ? READ_TOOLS[source.tool] : undefined;
    const value = key === undefined ? undefined : source.args?.[key];
    if (typeof value !== 'string' || value === '') return [];
    const abs = scope ? resolvePath(value, scope.context) : value;
    return abs?.startsWith('/') ? [abs] : [];
  }
  if (!scope || source.length > 4096) return [];
  const facts = parseShell(source, { context: scope.context });
  const out: string[] = [];
  for (const segment of facts.segments) {
    if (!READERS.has(segment.program) || segment.unresolved) continue;
    for (const word of segment.positionals) {
      const abs = resolvePath(word, scope.context);
      if (abs?.startsWith('/')) out.push(abs);
    }
  }
  return out;
}

/** What withSessionScripts asks of the file system where the command runs. */
export interface SessionFileView {
  /**
   * Whether a path is there now. A hook that is not there (`post-index-change` below a hooks
   * directory the session copied in) runs nothing; one the command itself creates first is judged
   * by the shell facts.
   */
  exists(path: string): boolean;
  /** A file's change time (FileView.changedAt); without it, no ignore file is timed. */
  changedAt?(path: string): number | undefined;
  /** Whether a tracked file holds what the index holds (matchesIndexNow); without it, none is asked. */
  matchesIndex?(path: string): boolean;
}

/**
 * withSessionScripts' view of a FileView; undefined without one (every path then counts as there).
 * A bound hit leaves a change time unknown: taken as a change now, so what relied on it is refused.
 */
export function sessionFileView(files: FileView | undefined): SessionFileView | undefined {
  if (!files) return undefined;
  const changedAt = files.changedAt?.bind(files);
  return {
    // Past the bounds nothing is known to be gone: a script, an ignore file, a removed path counts as there.
    exists: (path) => files.realpath(path) !== undefined || files.exhausted === true,
    ...(files.matchesIndex ? { matchesIndex: (path: string) => matchesIndexNow(files, path) } : {}),
    ...(changedAt
      ? {
          changedAt: (path: string) =>
            changedAt(path) ?? (files.exhausted ? Number.POSITIVE_INFINITY : undefined),
        }
      : {}),
  };
}

/**
 * Of `hits` (relied-on paths the session wrote or changed), those excused because nothing the
 * command removes as build output (ShellFacts.removes) is there: an ignore rule, the session's or
 * not, vouches for nothing that exists. Not "made in the session": a copy, `sed -i` or a stash and
 * pop gives the person's old data new inodes. Anything else relied on — a directory on the way, an
 * installed tool's package, a git remote's name — is never excused.
 */
function nothingRemoved(
  removed: readonly string[],
  hits: readonly string[],
  view: SessionFileView | undefined,
): Set<string> {
  const excused = new Set<string>();
  if (!view || hits.length === 0 || removed.length === 0) return excused;
  if (removed.some((path) => view.exists(path.endsWith('/') ? path.slice(0, -1) : path))) return excused;
  for (const hit of hits) if (IGNORE_FILE.test(hit) || removed.includes(hit)) excused.add(hit);
  return excused;
}

/** The repository's ignore files among what a removal relied on (build-outputs.ts consults these). */
const IGNORE_FILE = /(^|\/)\.gitignore$|\/info\/exclude$/;

/**
 * The call with the scripts it runs that this session wrote since last reading them, and the files it
 * relies on to pass that this session ever wrote (an ignore file: reading back its own rule does not
 * make it the person's), added to its dynamic constructs; the call itself when there are none. An
 * ignore file that changed after the session's first call counts as written by it however it
 * changed: git plumbing (`hash-object`, `commit-tree`, then a merge) rewrites one without any write
 * the gate records, but not without the kernel moving its change time (`changedAt`).
 *
 * A removal of paths that are not there removes nothing, whoever wrote the rule that calls them
 * output: that is not held against it (nothingRemoved).
 */
export async function withSessionScripts(
  store: Store,
  session: string,
  normalised: NormalisedCall,
  /** Without a file view every path counts as there, and nothing is timed. */
  view?: SessionFileView,
): Promise<NormalisedCall> {
  const facts = normalised.facts;
  const scripts = facts?.scripts ?? [];
  const relied = facts?.relies_on ?? [];
  if (!facts || (scripts.length === 0 && relied.length === 0)) return normalised;
  const changedAt = view?.changedAt;
  const ignoreFiles = changedAt ? relied.filter((path) => IGNORE_FILE.test(path)) : [];
  const none: string[] = [];
  const [writtenKeys, vouchingKeys, started] = await Promise.all([
    scripts.length > 0 ? store.writtenSinceRead(session, fileEventKeys(scripts)) : none,
    relied.length > 0 ? store.writtenBySession(session, fileEventKeys(relied)) : none,
    ignoreFiles.length > 0 ? store.sessionStartedAt(session) : undefined,
  ]);
  const written = answered(scripts, writtenKeys);
  const vouching = answered(relied, vouchingKeys);
  const changed =
    started === undefined || !changedAt
      ? []
      : ignoreFiles.filter((path) => !vouching.includes(path) && (changedAt(path) ?? -1) >= started);
  const excused = nothingRemoved(facts.removes ?? [], [...vouching, ...changed], view);
  const held = (path: string) => !excused.has(path);
  const exists = view?.exists ?? (() => true);
  const added = [
    ...written.filter(exists).map((path) => ({ kind: SESSION_WRITTEN, text: path.slice(0, 400) })),
    // Not only what is there now: a path the session moved something to (a job still running) counts.
    ...vouching.filter(held).map((path) => ({ kind: SESSION_WRITTEN_RELIED, text: path.slice(0, 400) })),
    ...changed.filter(held).map((path) => ({
      kind: SESSION_WRITTEN_RELIED,
      text: `${path.slice(0, 360)} (changed after the session began)`,
    })),
  ];
  if (added.length === 0) return normalised;
  return { ...normalised, facts: { ...facts, dynamic: [...facts.dynamic, ...added] } };
}
