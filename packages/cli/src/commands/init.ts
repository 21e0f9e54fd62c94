// tollgate init: a starter tollgate.config.yaml, and Tollgate's hooks merged into the config of each
// agent host present (or named with --hosts), after a confirmation (--yes, or y at a terminal);
// --dry-run prints the plan as a diff and writes nothing. `init claude-code [--settings PATH]` is the
// older spelling for Claude Code alone. Changing an existing config or host file is for a person
// (person.ts): an agent could otherwise re-point the hook at a config or store of its own.
import { existsSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { gatePins } from '../gate-pins.js';
import { ensureHookSnapshot, hookCommand, hookSnapshotPath } from '../hook-snapshot.js';
import { confirmed } from '../install/confirm.js';
import { detectHosts } from '../install/detect.js';
import { selfCommand } from '../install/hook-command.js';
import { HOSTS, type HostId, parseHostList } from '../install/hosts.js';
import { installDir, readManifest, writeManifest } from '../install/manifest.js';
import { applyInstall, changeDiff, type FileChange, planInstall } from '../install/plan.js';
import { needPerson } from '../person-check.js';
import { CONFIG_FILE, findConfig, type LoadedConfig, pinConfig, readConfig, storeEnv } from '../runtime.js';
import { stateBase } from '../state.js';
import { readPin } from '../store-pin.js';
import { defineCommand, writeJson } from '../support.js';
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

const usage = `
Usage: tollgate init [--hosts LIST] [--yes] [--dry-run] [--force] [--json]
       tollgate init claude-code [--settings PATH] [--json]
       tollgate init git-hooks [--remove] [--json]

  init               write ${CONFIG_FILE} here when none is found (an existing one is kept; --force
                     overwrites it), then merge Tollgate's hooks into each agent host present:
                       claude-code  .claude/settings.json   codex    .codex/hooks.json
                       gemini       .gemini/settings.json   cursor   .cursor/hooks.json
                       copilot      .github/hooks/tollgate.json
                     A host is present when its directory is in the project (.claude, .codex, .gemini,
                     .cursor, .github/hooks) or in HOME (~/.claude, ~/.codex or $CODEX_HOME, ~/.gemini,
                     ~/.cursor, ~/.copilot), or its program is on PATH (claude, codex, gemini,
                     cursor-agent or cursor, copilot). --hosts a,b chooses instead.
                     Every other key and hook of a file is kept; running it again changes nothing, and
                     replaces only Tollgate's own entries after an upgrade. A file that is not a JSON
                     object is refused and left alone. Each file's previous bytes are kept under the
                     state directory for tollgate uninstall.
  --dry-run          print the planned changes as a diff; write nothing
  --yes              apply without asking (scripts); at a terminal init asks y/N; otherwise it refuses
  init claude-code   only Claude Code, into .claude/settings.json (or PATH), without asking
  init git-hooks     a person: point this repository's core.hooksPath at tollgate's hooks directory
                     (under the state dir) whose pre-push, pre-commit and pre-rebase hooks ask the gate
                     about the git command; hooks configured before are chained (copied into that
                     directory, run after the gate; re-run after changing them); --remove restores
                     the previous core.hooksPath (see README, "Outside any harness")

Every hook command is <node> <abs>/bin/tollgate.js hook HOST with this project's TOLLGATE_CONFIG,
TOLLGATE_DB and TOLLGATE_STORE_ID pinned (never a postgres:// URL); the store is created and pinned.
It starts node from a start-up snapshot of the hook built for this node (dist/.v8-cache) and falls
back to the plain start when node refuses it; run init again after upgrading node.
Overwriting a config (--force) or changing an existing host file is for a person: an operator token
of the config in TOLLGATE_OPERATOR_TOKEN, or a terminal no agent host runs (as for override).
Check the result with tollgate doctor; undo it with tollgate uninstall.
`;

interface Target {
  host: HostId;
  file: string;
  because: string[];
}

export const command = defineCommand(
  {
    name: 'init',
    summary: 'write a starter config and install the hooks of each agent host present',
    options: {
      force: 'boolean',
      settings: 'string',
      hosts: 'string',
      yes: 'boolean',
      'dry-run': 'boolean',
      remove: 'boolean',
    },
    usage,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const [target, ...extra] = args.positionals;
    if (extra.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(extra[0])}`, 'see tollgate init --help');
    if (target === 'git-hooks') return gitHooksInit(args, io);
    if (target !== undefined && target !== 'claude-code')
      throw new UsageError(
        `unknown init target ${JSON.stringify(target)}`,
        'tollgate init [--hosts LIST], tollgate init claude-code, or tollgate init git-hooks',
      );
    const json = flag(args, 'json');
    const dryRun = flag(args, 'dry-run');
    const found = findConfig(io.cwd, io.env);

    // The config: kept when one is found; written here when none is (or with --force).
    const configPath = join(io.cwd, CONFIG_FILE);
    const writeConfig =
      target === undefined && (found.path === undefined || (flag(args, 'force') && existsSync(configPath)));
    const loaded: LoadedConfig = writeConfig
      ? { config: {}, path: configPath, root: dirname(configPath) }
      : found;
    const project = target === undefined ? loaded.root : io.cwd;

    const targets: Target[] =
      target === 'claude-code'
        ? [
            {
              host: 'claude-code',
              file: resolve(io.cwd, option(args, 'settings') ?? HOSTS['claude-code'].file),
              because: ['named'],
            },
          ]
        : chosenHosts(args, project, io.env);

    // The plan, with the store id as pinned today and the start-up snapshot as built today (the store
    // is created, and the snapshot built, only when the plan is applied).
    const self = selfCommand();
    const plan = (pin: Record<string, string>, snapshot: { blob: string } | undefined) =>
      targets.map((t) => ({
        ...t,
        change: planInstall(HOSTS[t.host], t.file, hookCommand(self, ['hook', t.host], pin, snapshot)),
      }));
    const blob = self[1] === 'tollgate' ? undefined : hookSnapshotPath(self[0] as string, self[1] as string);
    const planned = plan(
      provisionalPin(loaded, io.env),
      blob !== undefined && existsSync(blob) ? { blob } : undefined,
    );
    const configAction = writeConfig ? (existsSync(configPath) ? 'overwrite' : 'create') : 'keep';
    const hostChanges = planned.filter((p) => p.change.action !== 'unchanged');

    if (dryRun) {
      report(io, json, { configPath: loaded.path, configAction, planned, dryRun: true });
      return 0;
    }
    if (configAction === 'overwrite') needPerson(found, io, `overwrites of ${configPath}`);
    const touched = hostChanges.filter((p) => p.change.needsPerson).map((p) => p.file);
    if (touched.length > 0) needPerson(found, io, `changes to ${touched.join(', ')}`);
    // Asking is for host files; `init claude-code` names its one file and does not ask.
    if (hostChanges.length > 0 && target === undefined) {
      if (!flag(args, 'yes') && io.interactive === true)
        for (const p of hostChanges) io.stderr.write(`${changeDiff(p.change)}\n`);
      if (!(await confirmed(io, flag(args, 'yes'), 'init'))) {
        io.stderr.write('nothing was changed\n');
        return 1;
      }
    }
    if (writeConfig) writeFileSync(configPath, STARTER);
    const real = writeConfig
      ? { config: readConfig(configPath), path: configPath, root: loaded.root }
      : loaded;
    // The config init writes is the accepted one (overwriting one took a person, above).
    if (writeConfig) pinConfig(real, Buffer.from(STARTER), io.env, 'init');
    // The store is created and pinned, and the hook's start-up snapshot built for this node
    // (hook-snapshot.ts; the command falls back to the plain start), only when some host gets a hook.
    const snapshot =
      targets.length === 0 || self[1] === 'tollgate'
        ? undefined
        : ensureHookSnapshot(self[0] as string, self[1] as string);
    const fast = snapshot !== undefined && 'blob' in snapshot ? snapshot : undefined;
    const applied = targets.length > 0 ? plan(await gatePins(real, io.env), fast) : [];
    const dir = installDir(real.root, io.env);
    const manifest = readManifest(dir);
    for (const p of applied)
      if (p.change.action !== 'unchanged') applyInstall(p.change, HOSTS[p.host], dir, manifest);
    if (applied.some((p) => p.change.action !== 'unchanged')) writeManifest(dir, manifest);
    const problem = snapshot !== undefined && 'problem' in snapshot ? snapshot.problem : undefined;
    report(io, json, {
      configPath: real.path,
      configAction,
      planned: applied,
      dryRun: false,
      snapshot: fast?.blob ?? null,
      ...(problem !== undefined ? { snapshotProblem: problem } : {}),
    });
    return 0;
  },
);

function chosenHosts(args: ParsedArgs, project: string, env: NodeJS.ProcessEnv): Target[] {
  const list = option(args, 'hosts');
  if (list !== undefined) {
    const parsed = parseHostList(list);
    if ('problem' in parsed) throw new UsageError(parsed.problem, 'e.g. --hosts claude-code,codex');
    return parsed.hosts.map((host) => ({
      host,
      file: join(project, HOSTS[host].file),
      because: ['--hosts'],
    }));
  }
  return detectHosts(project, env).map((d) => ({
    host: d.host,
    file: join(project, HOSTS[d.host].file),
    because: d.because,
  }));
}

/** The pin as it is now, without creating a store: the store id is the pinned one, if any. */
function provisionalPin(loaded: LoadedConfig, env: NodeJS.ProcessEnv): Record<string, string> {
  const pin = storeEnv(loaded, env);
  if (pin.TOLLGATE_DB !== undefined && pin.TOLLGATE_STORE_ID === undefined) {
    const id = readPin(stateBase(env), pin.TOLLGATE_DB)?.store_id;
    pin.TOLLGATE_STORE_ID = id ?? '<the store id, once the store is created>';
  }
  return pin;
}

function report(
  io: CommandIO,
  json: boolean,
  r: {
    configPath: string | undefined;
    configAction: string;
    planned: (Target & { change: FileChange })[];
    dryRun: boolean;
    snapshot?: string | null;
    snapshotProblem?: string;
  },
): void {
  if (json) {
    writeJson(io, {
      dry_run: r.dryRun,
      config: { path: r.configPath, action: r.configAction },
      hosts: r.planned.map((p) => ({
        host: p.host,
        file: p.file,
        action: p.change.action,
        detected_by: p.because,
        ...(r.dryRun && p.change.action !== 'unchanged' ? { diff: changeDiff(p.change) } : {}),
      })),
      ...(r.snapshot !== undefined ? { snapshot: r.snapshot } : {}),
      ...(r.snapshotProblem !== undefined ? { snapshot_problem: r.snapshotProblem } : {}),
    });
    return;
  }
  const lines: string[] = [];
  const verb = r.dryRun ? 'would ' : '';
  if (r.configAction !== 'keep') lines.push(`${verb}${r.configAction} ${r.configPath}`);
  else lines.push(`config: ${r.configPath ?? 'none (defaults)'} (kept)`);
  if (r.planned.length === 0)
    lines.push(
      'no agent host detected (looked for .claude, .codex, .gemini, .cursor, .github/hooks, their ~ directories and programs on PATH); choose with --hosts',
    );
  for (const p of r.planned) {
    const what = p.change.action === 'unchanged' ? 'already installed' : `${verb}${p.change.action}`;
    lines.push(`${HOSTS[p.host].label}: ${what} ${p.file} (${p.because.join(', ')})`);
    if (r.dryRun && p.change.action !== 'unchanged') lines.push(changeDiff(p.change));
  }
  if (r.snapshot) lines.push(`the hooks start from a snapshot: ${r.snapshot}`);
  io.stdout.write(`${lines.join('\n')}\n`);
  if (r.snapshotProblem !== undefined)
    io.stderr.write(`tollgate: the hooks start without a snapshot: ${r.snapshotProblem}\n`);
}
