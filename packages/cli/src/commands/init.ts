// tollgate init [claude-code]: a starter tollgate.config.yaml, or the Claude Code hook entries merged
// into .claude/settings.json without touching anything else there.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { CONFIG_FILE, findConfig, storeEnv } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';
import { installClaudeCodeHooks } from './claude-settings.js';

const STARTER = `# Tollgate configuration (schema: contracts/schemas/config.json).
schema: tollgate.config/v1
# enforce: gated calls need a prediction or a decline. observe: never blocks, logs would_reject.
mode: enforce
# Rule files; builtin:NAME are the shipped catalogues. Add your own YAML files beside this one.
policies: [builtin:shell, builtin:mcp]
# The store: a SQLite file (default .tollgate/tollgate.db) or a postgres:// URL. TOLLGATE_DB wins.
# store: .tollgate/tollgate.db
# Rejections of one call in one session before it escalates to a human.
deny_ceiling: 3
# Evidence older than this (seconds) is refused unless a rule says otherwise.
default_max_age_s: 900
`;

export const command = defineCommand(
  {
    name: 'init',
    summary: 'write a starter config, or install the Claude Code hooks',
    options: { force: 'boolean', settings: 'string' },
    usage: `
Usage: tollgate init [--force] [--json]
       tollgate init claude-code [--settings PATH] [--json]

  init               write ${CONFIG_FILE} in this directory (refuses to overwrite without --force)
                     and create .tollgate/ for the store
  init claude-code   merge tollgate's PreToolUse, PostToolUse and PostToolUseFailure hooks into
                     .claude/settings.json (or PATH): onFailure "block", timeout 30 s; existing hooks,
                     permissions and other settings are kept; running it again updates its own entries.
                     The hook command pins this project's TOLLGATE_CONFIG and TOLLGATE_DB (not a
                     postgres:// URL), so it does not depend on the directory the hook starts in
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [target, ...extra] = args.positionals;
    if (extra.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(extra[0])}`, 'see tollgate init --help');
    if (target === 'claude-code') {
      mkdirSync(join(io.cwd, '.tollgate'), { recursive: true });
      const path = resolve(io.cwd, option(args, 'settings') ?? join('.claude', 'settings.json'));
      // Pin this project's config and store into the hook command, so neither depends on where the
      // hook process starts (a database URL is never written there: it may hold credentials).
      const pin = storeEnv(findConfig(io.cwd, io.env), io.env);
      const result = installClaudeCodeHooks(path, [process.execPath, process.argv[1] ?? 'tollgate'], pin);
      if (flag(args, 'json')) writeJson(io, result);
      else
        io.stdout.write(
          `${result.updated ? 'updated' : 'added'} tollgate hooks in ${path} (${result.events.join(', ')})\n`,
        );
      return 0;
    }
    if (target !== undefined)
      throw new UsageError(
        `unknown init target ${JSON.stringify(target)}`,
        'tollgate init, or tollgate init claude-code',
      );
    const path = join(io.cwd, CONFIG_FILE);
    if (existsSync(path) && !flag(args, 'force'))
      throw new UsageError(`${path} already exists`, 'edit it, or pass --force to overwrite it');
    writeFileSync(path, STARTER);
    mkdirSync(join(io.cwd, '.tollgate'), { recursive: true });
    if (flag(args, 'json')) writeJson(io, { config: path });
    else io.stdout.write(`wrote ${path}\n`);
    return 0;
  },
);
