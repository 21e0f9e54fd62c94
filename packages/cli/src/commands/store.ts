// tollgate store info|reset: where the store is and what pins it, and — a person only — accepting a
// store that vanished or was replaced. A pinned store that is missing or holds another store id is
// refused (gate_unavailable) until a person resets it here; the reset is recorded, with a fresh
// anchor of the store now in force, in the anchor log outside the store.
import { existsSync } from 'node:fs';
import { openStore } from '@tollgate/store';
import { takeAnchor } from '../anchor-check.js';
import { appendRecord, defaultAnchorFile } from '../anchor-log.js';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { needPerson } from '../person-check.js';
import { findConfig, storeTarget } from '../runtime.js';
import { canonicalPath, stateBase } from '../state.js';
import { isFileTarget, type Pin, pinFile, readPin, removePin, storeLabel, writePin } from '../store-pin.js';
import { defineCommand, writeJson } from '../support.js';
import { operatorOf } from './audit-anchor.js';

export const command = defineCommand(
  {
    name: 'store',
    summary: "the gate's store and its pin; operator: reset a vanished or replaced store",
    options: { reason: 'string', operator: 'string' },
    usage: `
Usage: tollgate store info [--json]
       tollgate store reset --reason TEXT [--operator NAME] [--json]

  info    the store in force (TOLLGATE_DB, the config's store:, or the default under the state
          directory), its store id, and its pin under <state dir>/pins/
  reset   a person only (an operator token, or a terminal no agent host runs, as for override).
          A pinned store file that vanished or holds another store id is refused (gate_unavailable)
          and never recreated silently. reset accepts what is there now: the file as it is, or a new
          empty store when it is missing; pins it; and appends a reset record and an anchor of the
          new head to <state dir>/anchors/<project>.jsonl. The old store's history is not recovered.
          If \`tollgate init claude-code\` pinned TOLLGATE_STORE_ID into the hook, run it again.

The state directory is TOLLGATE_STATE_DIR, else $XDG_STATE_HOME/tollgate, else ~/.local/state/tollgate.
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [sub, ...rest] = args.positionals;
    if (sub !== 'info' && sub !== 'reset')
      throw new UsageError(
        `store needs a subcommand, got ${JSON.stringify(sub ?? '')}`,
        'tollgate store info|reset',
      );
    if (rest.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(rest[0])}`, 'see tollgate store --help');
    const loaded = findConfig(io.cwd, io.env);
    const target = storeTarget(loaded, io.env);
    const base = stateBase(io.env);
    if (sub === 'info') {
      const file = isFileTarget(target);
      const info = {
        store: storeLabel(target),
        state_dir: base,
        ...(file
          ? { exists: existsSync(target), pin: pinFile(base, target), pinned: pinOrProblem(base, target) }
          : {}),
      };
      if (flag(args, 'json')) writeJson(io, info);
      else
        io.stdout.write(
          `${Object.entries(info)
            .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
            .join('\n')}\n`,
        );
      return 0;
    }
    const reason = option(args, 'reason')?.trim();
    if (!reason)
      throw new UsageError('a reset needs --reason', "e.g. --reason 'restored after disk failure'");
    const person = needPerson(loaded, io, 'store resets');
    if (!isFileTarget(target))
      throw new UsageError(
        'the store is a database URL: only SQLite store files are pinned, so there is nothing to reset',
        'check the database itself',
      );
    const path = canonicalPath(target);
    let previous: string | undefined;
    try {
      previous = readPin(base, path)?.store_id;
    } catch {
      previous = undefined; // a damaged pin is what is being reset
    }
    const created = !existsSync(path);
    const store = await openStore(path);
    try {
      const operator = operatorOf(person, args, io.env);
      const at = new Date();
      const anchor = await takeAnchor(store, path, operator, at);
      removePin(base, path);
      const pin: Pin = { path, store_id: anchor.store_id, created_at: at.toISOString() };
      writePin(base, pin);
      const log = defaultAnchorFile(base, loaded.root);
      appendRecord(log, {
        schema: 'tollgate.anchor/v1',
        kind: 'reset',
        store: path,
        store_id: anchor.store_id,
        ...(previous !== undefined ? { previous_store_id: previous } : {}),
        reason,
        at: at.toISOString(),
        operator,
      });
      appendRecord(log, anchor);
      const result = {
        store: path,
        store_id: anchor.store_id,
        previous_store_id: previous ?? null,
        created,
        operator,
        log,
      };
      if (flag(args, 'json')) writeJson(io, result);
      else
        io.stdout.write(
          `reset ${path}: now store ${anchor.store_id.slice(0, 8)} (${created ? 'new and empty' : `as found, ${anchor.rows} rows`}), previously ${previous?.slice(0, 8) ?? 'unpinned'}; recorded in ${log}\n` +
            'if tollgate init claude-code pinned TOLLGATE_STORE_ID into the hook, run it again\n',
        );
      return 0;
    } finally {
      await store.close();
    }
  },
);

function pinOrProblem(base: string, target: string): Pin | string | null {
  try {
    return readPin(base, target) ?? null;
  } catch (error) {
    return (error as Error).message;
  }
}
