// Where anchors live, outside the store: an append-only JSON-lines file under the state base (default
// `<state base>/anchors/<project>.jsonl`), or a git ref in the project repository whose commits each
// hold one anchor (`anchor.json`), chained by parent, written with git plumbing. A store reset is
// recorded in the same log, since the store it resets cannot hold that record, and so is a person's
// acceptance of a config change (tollgate config accept), which no agent-writable file may carry.
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { UsageError } from './errors.js';
import { projectKey } from './state.js';

export interface AnchorRecord {
  schema: 'tollgate.anchor/v1';
  kind: 'anchor';
  /** The store's file path, or its URL without credentials. */
  store: string;
  store_id: string;
  seq: number;
  hash: string;
  rows: number;
  at: string;
  operator: string;
}

export interface ResetRecord {
  schema: 'tollgate.anchor/v1';
  kind: 'reset';
  store: string;
  store_id: string;
  previous_store_id?: string;
  reason: string;
  at: string;
  operator: string;
}

/** A person accepted a change of the gate's config (tollgate config accept): what was in force, what is now. */
export interface ConfigAcceptRecord {
  schema: 'tollgate.anchor/v1';
  kind: 'config-accept';
  config: string;
  /** The digest now in force; null when the accepted change is the config's deletion. */
  digest: string | null;
  previous_digest: string;
  files: { path: string; accepted: string | null; now: string | null }[];
  reason?: string;
  at: string;
  operator: string;
}

export type LogRecord = AnchorRecord | ResetRecord | ConfigAcceptRecord;

export function defaultAnchorFile(base: string, root: string): string {
  return join(base, 'anchors', `${projectKey(root)}.jsonl`);
}

export function appendRecord(file: string, record: LogRecord): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

/** Every record in a log file, oldest first; a line that is not a record is named, not skipped. */
export function readRecords(file: string): LogRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read the anchor file ${file}: ${(error as Error).message}`,
      'name an anchor file written by tollgate audit anchor',
    );
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      try {
        const record = JSON.parse(line) as LogRecord;
        if (
          record.schema === 'tollgate.anchor/v1' &&
          (record.kind === 'anchor' || record.kind === 'reset' || record.kind === 'config-accept')
        )
          return record;
      } catch {
        // fall through
      }
      throw new UsageError(
        `the anchor file ${file} is damaged at line ${i + 1}`,
        'anchor files are append-only; restore it from a copy, or anchor anew',
      );
    });
}

// --- git ---

const GIT_FILE = 'anchor.json';
const IDENTITY = {
  GIT_AUTHOR_NAME: 'tollgate',
  GIT_AUTHOR_EMAIL: 'tollgate@localhost',
  GIT_COMMITTER_NAME: 'tollgate',
  GIT_COMMITTER_EMAIL: 'tollgate@localhost',
};

export function checkRefName(ref: string): string {
  if (
    !/^refs\/[A-Za-z0-9._/-]+$/.test(ref) ||
    ref.includes('..') ||
    ref.endsWith('/') ||
    ref.endsWith('.lock')
  )
    throw new UsageError(
      `--git-ref ${JSON.stringify(ref)} is not a full ref name`,
      'e.g. --git-ref refs/tollgate/anchors',
    );
  return ref;
}

/** Commits the record as `anchor.json` on top of the ref's previous commit, and moves the ref (compare-and-swap). */
export function writeGitRecord(repo: string, ref: string, record: LogRecord): string {
  const parent = gitTry(repo, ['rev-parse', '-q', '--verify', `${ref}^{commit}`]);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], `${JSON.stringify(record)}\n`);
  const tree = git(repo, ['mktree'], `100644 blob ${blob}\t${GIT_FILE}\n`);
  const message = record.kind === 'anchor' ? `tollgate anchor: seq ${record.seq}` : 'tollgate store reset';
  const commit = git(repo, ['commit-tree', tree, ...(parent ? ['-p', parent] : []), '-m', message]);
  git(repo, ['update-ref', '-m', message, ref, commit, parent ?? '0'.repeat(40)]);
  return commit;
}

/** The newest record on the ref, undefined when the ref does not exist. */
export function readGitRecord(repo: string, ref: string): LogRecord | undefined {
  if (gitTry(repo, ['rev-parse', '-q', '--verify', `${ref}^{commit}`]) === undefined) return undefined;
  const text = git(repo, ['cat-file', 'blob', `${ref}:${GIT_FILE}`]);
  try {
    return JSON.parse(text) as LogRecord;
  } catch {
    throw new UsageError(
      `${ref}:${GIT_FILE} is not an anchor record`,
      'anchor anew with tollgate audit anchor',
    );
  }
}

function git(repo: string, args: string[], input?: string): string {
  try {
    return execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      input: input ?? '',
      env: { ...process.env, ...IDENTITY },
      stdio: ['pipe', 'pipe', 'pipe'],
    }).trim();
  } catch (error) {
    const detail = String((error as { stderr?: unknown }).stderr ?? (error as Error).message).trim();
    throw new UsageError(
      `git ${args[0]} in ${repo} failed: ${detail.slice(0, 300)}`,
      'anchors in git need the project to be a git repository; or use --file F',
    );
  }
}

function gitTry(repo: string, args: string[]): string | undefined {
  try {
    return git(repo, args) || undefined;
  } catch {
    return undefined;
  }
}
