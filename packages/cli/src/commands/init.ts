// tollgate init [claude-code]: a starter tollgate.config.yaml, or the Claude Code hook entries merged
// into .claude/settings.json without touching anything else there. Changing an existing config or
// settings file is for a person (person.ts): an agent could otherwise re-point the hook at a config
// or store of its own.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { ensureHookSnapshot } from '../hook-snapshot.js';
import { requirePerson } from '../person.js';
import {
  CONFIG_FILE,
  findConfig,
  isDatabaseUrl,
  type LoadedConfig,
  storeEnv,
  storeTarget,
} from '../runtime.js';
import { openPinnedStore } from '../store-pin.js';
import { defineCommand, writeJson } from '../support.js';
import { installClaudeCodeHooks } from './claude-settings.js';
import { gitHooksInit } from './git-hooks.js';

const STARTER = `# Tollgate configuration (schema: contracts/schemas/config.json).
schema: tollgate.config/v1
# enforce: gated calls need a prediction or a decline. observe: never blocks, logs would_reject.
mode: enforce
# Rule files; builtin:NAME are the shipped catalogues. Add your own YAML files beside this one.
policies: [builtin:shell, builtin:mcp]
# The store: a SQLite file or a postgres:// URL; TOLLGATE_DB wins. Default: outside the project, at
# ~/.local/state/tollgate/<project>-<hash>/tollgate.db (see tollgate store info).
# store: /srv/tollgate/tollgate.db
# Rejections of one call in one session before it escalates to a human.
deny_ceiling: 3
# Evidence older than this (seconds) is refused unless a rule says otherwise.
default_max_age_s: 900
`;

export const command = defineCommand(
  {
    name: 'init',
    summary: 'write a starter config, or install the Claude Code hooks',
    options: { force: 'boolean', settings: 'string', remove: 'boolean' },
    usage: `
Usage: tollgate init [--force] [--json]
       tollgate init claude-code [--settings PATH] [--json]
       tollgate init git-hooks [--remove] [--json]

  init               write ${CONFIG_FILE} in this directory (refuses to overwrite without --force).
                     The store is not in the project: see tollgate store info
  init claude-code   merge tollgate's PreToolUse, PostToolUse and PostToolUseFailure hooks into
                     .claude/settings.json (or PATH): onFailure "block", timeout 30 s; existing hooks,
                     permissions and other settings are kept; running it again updates its own entries.
                     It creates (and pins) the store, and the hook command pins this project's
                     TOLLGATE_CONFIG, TOLLGATE_DB and TOLLGATE_STORE_ID (not a postgres:// URL), so it
                     does not depend on the directory the hook starts in, and a store deleted or
                     replaced later is refused rather than recreated. The hook command starts node
                     from a start-up snapshot of the hook built for this node (dist/.v8-cache), and
                     falls back to the plain start when node refuses it; run init again after
                     upgrading node

  init git-hooks     a person: point this repository's core.hooksPath at tollgate's hooks directory
                     (under the state dir) whose pre-push, pre-commit and pre-rebase hooks ask the gate
                     about the git command; hooks configured before are chained; --remove restores
                     the previous core.hooksPath (see README, "Outside any harness")

Overwriting a config (--force) or changing an existing settings file is for a person: an operator
token of the config in TOLLGATE_OPERATOR_TOKEN, or a terminal no agent host runs (as for override).
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [target, ...extra] = args.positionals;
    if (extra.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(extra[0])}`, 'see tollgate init --help');
    if (target === 'git-hooks') return gitHooksInit(args, io);
    if (target === 'claude-code') {
      const path = resolve(io.cwd, option(args, 'settings') ?? join('.claude', 'settings.json'));
      const loaded = findConfig(io.cwd, io.env);
      if (hasContent(path)) needPerson(loaded, io, `changes to ${path}`);
      // Pin this project's config, store and store id into the hook command, so none depends on where
      // the hook process starts (a database URL is never written there: it may hold credentials).
      const pin = { ...storeEnv(loaded, io.env), ...(await storeIdPin(loaded, io.env)) };
      const self = [process.execPath, process.argv[1] ?? 'tollgate'];
      // The hook starts from a snapshot of itself when one can be built for this node (hook-snapshot.ts).
      const snapshot =
        self[1] === 'tollgate' ? undefined : ensureHookSnapshot(process.execPath, self[1] as string);
      const fast = snapshot !== undefined && 'blob' in snapshot ? snapshot : undefined;
      const result = installClaudeCodeHooks(path, self, pin, fast);
      const problem = snapshot !== undefined && 'problem' in snapshot ? snapshot.problem : undefined;
      if (flag(args, 'json'))
        writeJson(io, {
          ...result,
          snapshot: fast?.blob ?? null,
          ...(problem !== undefined ? { snapshot_problem: problem } : {}),
        });
      else {
        io.stdout.write(
          `${result.updated ? 'updated' : 'added'} tollgate hooks in ${path} (${result.events.join(', ')})\n`,
        );
        if (fast) io.stdout.write(`the hook starts from a snapshot: ${fast.blob}\n`);
        else if (problem !== undefined)
          io.stderr.write(`tollgate: the hook starts without a snapshot: ${problem}\n`);
      }
      return 0;
    }
    if (target !== undefined)
      throw new UsageError(
        `unknown init target ${JSON.stringify(target)}`,
        'tollgate init, tollgate init claude-code, or tollgate init git-hooks',
      );
    const path = join(io.cwd, CONFIG_FILE);
    if (existsSync(path)) {
      if (!flag(args, 'force'))
        throw new UsageError(`${path} already exists`, 'edit it, or pass --force to overwrite it');
      needPerson(findConfig(io.cwd, io.env), io, `overwrites of ${path}`);
    }
    writeFileSync(path, STARTER);
    if (flag(args, 'json')) writeJson(io, { config: path });
    else io.stdout.write(`wrote ${path}\n`);
    return 0;
  },
);

function hasContent(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

function needPerson(loaded: LoadedConfig, io: CommandIO, doing: string): void {
  requirePerson({
    tokens: loaded.config.tokens ?? [],
    env: io.env,
    interactive: io.interactive === true,
    doing,
    ...(io.ancestors ? { ancestors: io.ancestors } : {}),
  });
}

/** Opens (creating and pinning) a file store and returns its id to pin into the hook command. */
async function storeIdPin(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Promise<Record<string, string>> {
  const target = storeTarget(loaded, env);
  if (isDatabaseUrl(target)) return {};
  const store = await openPinnedStore(target, env);
  try {
    return { TOLLGATE_STORE_ID: await store.storeId() };
  } finally {
    await store.close();
  }
}
