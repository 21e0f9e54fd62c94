// tollgate config status|accept: the direnv model for the gate's own configuration (config-pin.ts).
// status says which config is in force, its pin and any change waiting; accept — a person only, by the
// person check of the config in force (the accepted one: a token the change adds proves nothing) —
// shows what changed and records the config as it is now as accepted, in the anchor log.

import { appendRecord, defaultAnchorFile } from '../anchor-log.js';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { acceptedBytes, type FileChange, readBytes, removeConfigPin } from '../config-pin.js';
import { UsageError } from '../errors.js';
import { needPerson } from '../person-check.js';
import { loadPolicyFor } from '../policy-loader.js';
import {
  cacheDir,
  findConfig,
  type LoadedConfig,
  parseConfig,
  pinConfig,
  pinPath,
  policyFiles,
} from '../runtime.js';
import { stateBase } from '../state.js';
import { defineCommand, writeJson } from '../support.js';
import { operatorOf } from './audit-anchor.js';

const MAX_DIFF_LINES = 40;

export const command = defineCommand(
  {
    name: 'config',
    summary: "the gate's config in force; a person: accept a change to it",
    options: { reason: 'string', operator: 'string' },
    subcommands: ['status', 'accept'],
    usage: `
Usage: tollgate config status [--json]
       tollgate config accept [--reason TEXT] [--operator NAME] [--json]

A config takes effect only once a person has accepted it. The first time the gate loads a config it
pins it (trust on first use; tollgate init pins the config it writes): the sha-256 of the config's
bytes and of every user rule file it lists, with a copy of each, under <state dir>/config-pins/.
When those bytes change later — whoever or whatever wrote them (an editor, git apply, git checkout,
tar -x, a program) — or the config is deleted, the gate keeps enforcing the accepted copy and says
that a change is pending, until a person accepts it here.

  status  the config file, the digest in force, when and by whom it was accepted, and the files
          that changed since (exit 0; 1 when a change is pending)
  accept  a person only (an operator token of the accepted config, or a terminal no agent host runs,
          as for override): shows each changed file's digests and the lines removed and added,
          checks that the new config and its rule files load, then pins them as the config in force
          and appends a config-accept record to <state dir>/anchors/<project>.jsonl. Accepting a
          deleted config removes its pin: the gate then uses what it finds without it.

The state directory is TOLLGATE_STATE_DIR, else $XDG_STATE_HOME/tollgate, else ~/.local/state/tollgate.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [sub, ...rest] = args.positionals;
    if (sub !== 'status' && sub !== 'accept')
      throw new UsageError(
        `config needs a subcommand, got ${JSON.stringify(sub ?? '')}`,
        'tollgate config status|accept',
      );
    if (rest.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(rest[0])}`, 'see tollgate config --help');
    const loaded = findConfig(io.cwd, io.env);
    if (sub === 'status') return status(loaded, args, io);
    return accept(loaded, args, io);
  },
);

function status(loaded: LoadedConfig, args: ParsedArgs, io: CommandIO): number {
  const info = {
    config: loaded.path ?? null,
    digest: loaded.pin?.digest ?? null,
    accepted_at: loaded.pin?.accepted_at ?? null,
    accepted_by: loaded.pin?.accepted_by ?? null,
    files: loaded.pin?.files ?? [],
    pending: loaded.pending ?? [],
  };
  if (flag(args, 'json')) writeJson(io, info);
  else if (loaded.path === undefined)
    io.stdout.write('no tollgate.config.yaml: the built-in defaults are in force\n');
  else {
    io.stdout.write(
      `config: ${loaded.path}\n` +
        (loaded.pin
          ? `in force: ${loaded.pin.digest} (accepted ${loaded.pin.accepted_at} by ${loaded.pin.accepted_by})\n`
          : 'not pinned\n'),
    );
    for (const c of info.pending) io.stdout.write(`pending: ${describe(c)}\n`);
    if (info.pending.length > 0)
      io.stdout.write('a person accepts the change with: tollgate config accept\n');
  }
  return info.pending.length > 0 ? 1 : 0;
}

function accept(loaded: LoadedConfig, args: ParsedArgs, io: CommandIO): number {
  const path = loaded.path;
  if (path === undefined)
    throw new UsageError('no tollgate.config.yaml here or above, and none pinned', 'nothing to accept');
  // The person check reads the config in force: the accepted one while a change is pending.
  const person = needPerson(loaded, io, 'accepting a config change');
  const operator = operatorOf(person, args, io.env);
  const reason = option(args, 'reason')?.trim();
  const base = stateBase(io.env);
  const pending = loaded.pending ?? [];
  const json = flag(args, 'json');
  if (loaded.pin !== undefined && pending.length === 0) {
    if (json) writeJson(io, { config: path, accepted: false, digest: loaded.pin.digest, changes: [] });
    else io.stdout.write(`${path}: no change since it was accepted (${loaded.pin.digest.slice(0, 12)})\n`);
    return 0;
  }
  const bytes = readBytes(path);
  let digest: string | null = null;
  if (bytes === undefined) {
    removeConfigPin(base, pinPath(path));
  } else {
    // The new config must load before it is accepted: a broken one would refuse every call.
    const next: LoadedConfig = { config: parseConfig(path, bytes), path, root: loaded.root };
    loadPolicyFor(policyFiles(next), cacheDir(next, io.env));
    const pin = pinConfig(next, bytes, io.env, operator);
    if (pin === undefined)
      throw new UsageError(`a rule file ${path} lists is missing`, 'create it or drop it from policies:');
    digest = pin.digest;
  }
  const previous = loaded.pin?.digest ?? '';
  const diffs = pending.map((c) => ({ ...c, lines: lineDiff(base, loaded, c) }));
  const at = new Date().toISOString();
  const log = defaultAnchorFile(base, loaded.root);
  appendRecord(log, {
    schema: 'tollgate.anchor/v1',
    kind: 'config-accept',
    config: path,
    digest,
    previous_digest: previous,
    files: pending.map(({ path: p, accepted, now }) => ({ path: p, accepted, now })),
    ...(reason ? { reason } : {}),
    at,
    operator,
  });
  if (json)
    writeJson(io, {
      config: path,
      accepted: true,
      digest,
      previous_digest: previous,
      changes: diffs,
      operator,
      log,
    });
  else {
    for (const d of diffs) {
      io.stdout.write(`${describe(d)}\n`);
      for (const line of d.lines) io.stdout.write(`  ${line}\n`);
    }
    io.stdout.write(
      digest === null
        ? `accepted by ${operator}: ${path} is gone, its pin removed; recorded in ${log}\n`
        : `accepted by ${operator}: ${path} is now in force (${digest.slice(0, 12)}, previously ${previous.slice(0, 12) || 'unpinned'}); recorded in ${log}\n`,
    );
  }
  return 0;
}

function describe(c: FileChange): string {
  const was = c.accepted === null ? 'absent' : c.accepted.slice(0, 12);
  const now = c.now === null ? 'deleted' : c.now.slice(0, 12);
  return `${c.path}: ${was} → ${now}`;
}

/** The lines a change removed (-) and added (+), as multisets: what a person needs to see, capped. */
function lineDiff(base: string, loaded: LoadedConfig, change: FileChange): string[] {
  const file = loaded.pin?.files.find((f) => f.path === change.path);
  const before = file && file.sha256 !== null ? linesOf(acceptedBytes(base, file)) : [];
  const after = linesOf(readBytes(change.path));
  const count = new Map<string, number>();
  for (const l of before) count.set(l, (count.get(l) ?? 0) + 1);
  const added: string[] = [];
  for (const l of after) {
    const n = count.get(l) ?? 0;
    if (n > 0) count.set(l, n - 1);
    else added.push(`+ ${l}`);
  }
  const removed = [...count].flatMap(([l, n]) => Array<string>(n).fill(`- ${l}`));
  const all = [...removed, ...added].map(printable);
  return all.length > MAX_DIFF_LINES
    ? [...all.slice(0, MAX_DIFF_LINES), `… ${all.length - MAX_DIFF_LINES} more lines`]
    : all;
}

function linesOf(bytes: Buffer | undefined): string[] {
  return bytes === undefined
    ? []
    : bytes
        .toString('utf8')
        .split('\n')
        .filter((l) => l.trim() !== '');
}

/** A line as a person's terminal shows it: no control or format characters, capped. */
function printable(line: string): string {
  return line.replace(/[\p{Cc}\p{Cf}\u2028\u2029]/gu, '?').slice(0, 200);
}
