// What `tollgate doctor` finds for one host: whether Tollgate's entries are installed for every event
// it needs, whether they are current (this tollgate's node and bin, the pin this project has now), and
// whether they enforce (config mode, the host's own switches, fail-closed flags, and a live self-test).
import { realpathSync } from 'node:fs';
import { pendingText } from '../config-pin.js';
import type { LoadedConfig } from '../runtime.js';
import { loadConfigFile } from '../runtime.js';
import { type InstalledCommand, selfCommand } from './hook-command.js';
import { hooksSwitchedOff } from './host-switches.js';
import type { HostSpec } from './hosts.js';
import { readJsonFile } from './json-file.js';
import { type FoundEntry, ourEntries } from './merge.js';
import { selfTest } from './self-test.js';

export interface Check {
  ok: boolean;
  problems: string[];
}

export interface HostReport {
  host: string;
  label: string;
  file: string;
  detected: string[];
  installed: Check;
  current: Check;
  enforcing: Check;
  ok: boolean;
}

export interface InspectContext {
  project: string;
  loaded: LoadedConfig;
  env: NodeJS.ProcessEnv;
  /** The variables the hook command should pin now (storeEnv + the pinned store id). */
  expectedPin: Record<string, string>;
  /** Problems with the store pin itself (not created, not pinned). */
  pinProblems: string[];
  selfTest: boolean;
}

export async function inspectHost(
  spec: HostSpec,
  file: string,
  detected: string[],
  ctx: InspectContext,
): Promise<HostReport> {
  const installed: Check = { ok: true, problems: [] };
  const current: Check = { ok: true, problems: [] };
  const enforcing: Check = { ok: true, problems: [] };
  const fail = (c: Check, problem: string) => {
    c.ok = false;
    c.problems.push(problem);
  };
  let entries: FoundEntry[] = [];
  try {
    const read = readJsonFile(file);
    if (!read.exists) fail(installed, `${file} does not exist`);
    else entries = ourEntries(read.doc, spec, file);
  } catch (error) {
    fail(installed, (error as Error).message.replace(/; nothing was changed$/, ''));
  }
  const mine = entries.filter((e) => e.command.host === spec.id);
  for (const e of entries)
    if (e.command.host !== spec.id)
      fail(current, `${e.event}: runs \`hook ${e.command.host}\`, not \`hook ${spec.id}\``);
  const needed = Object.keys(spec.entries(''));
  if (installed.problems.length === 0)
    for (const event of needed)
      if (!mine.some((e) => e.event === event)) fail(installed, `no Tollgate entry for ${event}`);
  if (mine.length === 0) {
    if (installed.ok) fail(installed, 'no Tollgate entries');
    return finish();
  }

  // Current: the same node and bin as this tollgate, and the pin this project has now.
  const [node, script] = selfCommand().map(real);
  for (const p of ctx.pinProblems) fail(current, p);
  const seen = new Set<string>();
  for (const e of mine) {
    for (const p of staleness(e.command, node as string, script as string, ctx.expectedPin)) {
      const line = `${e.event}: ${p}`;
      if (!seen.has(p)) fail(current, line);
      seen.add(p);
    }
  }

  // Enforcing: mode, the host's switches, fail-closed flags, then the live test.
  const configPath = mine[0]?.command.env.TOLLGATE_CONFIG;
  try {
    // The config the hook enforces: the accepted one, while a change to it waits for a person.
    const loaded = configPath !== undefined ? loadConfigFile(configPath, ctx.env) : ctx.loaded;
    if (loaded.config.mode === 'observe')
      fail(enforcing, `mode: observe in ${configPath ?? ctx.loaded.path}: calls are logged, never refused`);
    if (loaded.pending !== undefined && loaded.pending.length > 0) {
      const text = pendingText(loaded.pending);
      fail(current, text);
      fail(enforcing, text);
    }
  } catch (error) {
    fail(enforcing, `the config the hook uses cannot be read: ${(error as Error).message}`);
  }
  for (const p of hooksSwitchedOff(spec.id, ctx.project, ctx.env))
    fail(enforcing, `hooks are switched off: ${p}`);
  for (const event of spec.gating) {
    const e = mine.find((x) => x.event === event);
    if (e === undefined) continue;
    if (spec.id === 'claude-code' && e.entry.onFailure !== 'block')
      fail(
        enforcing,
        `${event}: onFailure is not "block", so a crashed or timed-out hook lets the call through`,
      );
    if (spec.id === 'cursor' && e.entry.failClosed !== true)
      fail(
        enforcing,
        `${event}: failClosed is not true, so a crashed or timed-out hook lets the call through`,
      );
  }
  const gate = spec.gating.map((g) => mine.find((e) => e.event === g)).find((e) => e !== undefined);
  if (gate === undefined)
    fail(enforcing, `no Tollgate entry for ${spec.gating.join(' or ')}: nothing is gated`);
  else if (ctx.selfTest) {
    // Only a command that runs this very node and bin is run: anything else in a host file is not
    // executed by doctor.
    const unsafe = staleness(gate.command, node as string, script as string, {}).filter(
      (p) => !p.startsWith('pins'),
    );
    if (unsafe.length > 0) fail(enforcing, `self-test not run: ${unsafe.join('; ')}`);
    else
      for (const p of (await selfTest(spec, gate.command, ctx.project, ctx.env)).problems) fail(enforcing, p);
  }
  return finish();

  function finish(): HostReport {
    return {
      host: spec.id,
      label: spec.label,
      file,
      detected,
      installed,
      current,
      enforcing,
      ok: installed.ok && current.ok && enforcing.ok,
    };
  }
}

/** Why an installed command is not this tollgate's current one (empty when it is). */
function staleness(
  cmd: InstalledCommand,
  node: string,
  script: string,
  expected: Record<string, string>,
): string[] {
  const out: string[] = [];
  const [program, bin] = cmd.argv;
  if (real(program ?? '') !== node) out.push(`runs ${program}, not this node (${node})`);
  if (real(bin ?? '') !== script) out.push(`runs ${bin}, not this tollgate (${script})`);
  for (const k of Object.keys(cmd.env))
    if (!k.startsWith('TOLLGATE_')) out.push(`sets ${k}, which tollgate init never writes`);
  for (const [k, v] of Object.entries(expected))
    if (cmd.env[k] !== v) out.push(`pins ${k}=${cmd.env[k] ?? '(nothing)'}, expected ${v}`);
  for (const k of Object.keys(cmd.env))
    if (k.startsWith('TOLLGATE_') && !(k in expected) && Object.keys(expected).length > 0)
      out.push(`pins ${k}, which this project does not use now`);
  return out;
}

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
