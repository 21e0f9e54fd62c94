// tollgate audit anchor and audit verify --against: the chain head recorded outside the store by a
// person, and a store checked against the newest such record.
import { userInfo } from 'node:os';
import { resolve } from 'node:path';
import { type AnchorCheck, checkAgainst, takeAnchor } from '../anchor-check.js';
import {
  type AnchorRecord,
  appendRecord,
  checkRefName,
  defaultAnchorFile,
  readGitRecord,
  readRecords,
  writeGitRecord,
} from '../anchor-log.js';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import type { Person } from '../person.js';
import { needPerson } from '../person-check.js';
import { findConfig, openRuntime, type Runtime, storeTarget } from '../runtime.js';
import { stateBase } from '../state.js';
import { storeLabel } from '../store-pin.js';
import { writeJson } from '../support.js';

export async function anchor(args: ParsedArgs, io: CommandIO): Promise<number> {
  const file = option(args, 'file');
  const ref = option(args, 'git-ref');
  if (file !== undefined && ref !== undefined)
    throw new UsageError('give one place: --file F or --git-ref REF', 'drop one of them');
  const loaded = findConfig(io.cwd, io.env);
  const person = needPerson(loaded, io, 'anchors of the audit chain');
  const runtime = await openRuntime({ cwd: io.cwd, env: io.env, channel: 'cli' });
  try {
    const chain = await runtime.store.verifyAudit();
    if (!chain.ok)
      throw new UsageError(
        `the chain is broken at seq ${chain.broken_at.seq} (${chain.broken_at.problem}); anchoring it would vouch for the damage, so nothing was recorded`,
        'see tollgate audit verify; a person decides what happened before anchoring again',
      );
    const label = storeLabel(storeTarget(runtime.loaded, io.env));
    const record = await takeAnchor(runtime.store, label, operatorOf(person, args, io.env), new Date());
    let where: string;
    if (ref !== undefined) {
      const commit = writeGitRecord(runtime.loaded.root, checkRefName(ref), record);
      where = `git:${ref} (commit ${commit.slice(0, 12)})`;
    } else {
      const path =
        file !== undefined
          ? resolve(io.cwd, file)
          : defaultAnchorFile(stateBase(io.env), runtime.loaded.root);
      appendRecord(path, record);
      where = path;
    }
    if (flag(args, 'json')) writeJson(io, { anchor: record, written_to: where });
    else
      io.stdout.write(
        `anchored store ${record.store_id.slice(0, 8)} at seq ${record.seq} (${record.rows} rows) in ${where}\n`,
      );
    return 0;
  } finally {
    await runtime.close();
  }
}

export async function verifyAgainst(
  runtime: Runtime,
  against: string,
  io: CommandIO,
  json: boolean,
): Promise<number> {
  const label = storeLabel(storeTarget(runtime.loaded, io.env));
  const anchored = newestAnchor(against, label, runtime.loaded.root, io.cwd);
  const chain = await runtime.store.verifyAudit();
  const check: AnchorCheck = await checkAgainst(runtime.store, anchored);
  const ok = chain.ok && check.ok;
  if (json) writeJson(io, { ok, rows: chain.rows, chain, anchor: check, against });
  else {
    if (chain.ok) io.stdout.write(`ok: ${chain.rows} rows, chain intact\n`);
    else
      io.stderr.write(
        `broken: row seq ${chain.broken_at.seq}${chain.broken_at.id ? ` (id ${chain.broken_at.id})` : ''}: ${chain.broken_at.problem}; ${chain.rows} rows checked\n`,
      );
    if (check.ok) io.stdout.write(`ok: ${check.message} in ${against}\n`);
    else io.stderr.write(`anchor ${against}: ${check.message}\n`);
  }
  return ok ? 0 : 1;
}

/** The newest anchor of this store in F, or the anchor on git:REF. */
function newestAnchor(against: string, label: string, root: string, cwd: string): AnchorRecord | undefined {
  if (against.startsWith('git:')) {
    const record = readGitRecord(root, checkRefName(against.slice(4)));
    return record?.kind === 'anchor' ? record : undefined;
  }
  const records = readRecords(resolve(cwd, against));
  for (let i = records.length - 1; i >= 0; i--) {
    const record = records[i] as (typeof records)[number];
    if (record.kind === 'anchor' && record.store === label) return record;
  }
  return undefined;
}

/** The name recorded: the operator token's agent, --operator, or the OS user at the terminal. */
export function operatorOf(person: Person, args: ParsedArgs, env: NodeJS.ProcessEnv): string {
  if (person.via === 'token') return person.name;
  const given = option(args, 'operator');
  if (given) return given;
  try {
    return userInfo().username;
  } catch {
    return env.USER || 'unknown';
  }
}
