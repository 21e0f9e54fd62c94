// tollgate doctor: for each agent host present or holding Tollgate entries, whether the gate is
// installed, current and enforcing — as a table or --json; exit 1 when any such host is not. Read-only:
// the live self-test runs the installed command against a throwaway store, never the real one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { detectHosts } from '../install/detect.js';
import { HOST_IDS, HOSTS, type HostId, parseHostList } from '../install/hosts.js';
import { type HostReport, inspectHost } from '../install/inspect.js';
import { installDir, readManifest } from '../install/manifest.js';
import { findConfig, isDatabaseUrl, storeEnv, storeTarget } from '../runtime.js';
import { stateBase } from '../state.js';
import { readPin } from '../store-pin.js';
import { defineCommand, writeJson } from '../support.js';

const usage = `
Usage: tollgate doctor [--hosts LIST] [--no-self-test] [--json]

For each agent host that is present (the rule of tollgate init) or whose file holds Tollgate entries:
  installed   Tollgate's entries are in its file for every event it needs
  current     they run this node and this tollgate's bin, and pin this project's TOLLGATE_CONFIG,
              TOLLGATE_DB and TOLLGATE_STORE_ID as they are now
  enforcing   the config's mode is enforce (not observe), the host has not switched hooks off
              (Claude Code disableAllHooks, Codex [features] hooks = false, Gemini CLI
              hooksConfig.enabled = false), pre-tool entries fail closed (Claude Code onFailure
              "block", Cursor failClosed), and the installed command, run once with a synthetic
              \`git push --force origin main\` event in the host's protocol against a throwaway store,
              denies it — and does not deny a harmless \`ls\`
Exit 0 when every such host passes all three, 1 otherwise (or on a usage error).
`;

export const command = defineCommand(
  {
    name: 'doctor',
    summary: 'whether each agent host has the gate installed, current and enforcing',
    options: { hosts: 'string', 'no-self-test': 'boolean' },
    usage,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected ${JSON.stringify(args.positionals[0])}`, 'see tollgate doctor --help');
    const loaded = findConfig(io.cwd, io.env);
    const project = loaded.root;
    const detected = new Map(detectHosts(project, io.env).map((d) => [d.host, d.because]));
    const manifest = readManifest(installDir(project, io.env));
    const listed = option(args, 'hosts');
    let hosts: HostId[];
    if (listed !== undefined) {
      const parsed = parseHostList(listed);
      if ('problem' in parsed) throw new UsageError(parsed.problem, 'e.g. --hosts claude-code,codex');
      hosts = parsed.hosts;
    } else
      hosts = HOST_IDS.filter(
        (id) =>
          detected.has(id) ||
          existsSync(join(project, HOSTS[id].file)) ||
          Object.values(manifest.files).some((f) => f.host === id),
      );

    // The pin the hook commands should carry now; doctor never creates or pins a store itself.
    const expectedPin = storeEnv(loaded, io.env);
    const pinProblems: string[] = [];
    const target = storeTarget(loaded, io.env);
    if (!isDatabaseUrl(target) && expectedPin.TOLLGATE_STORE_ID === undefined) {
      const pin = readPin(stateBase(io.env), target);
      if (pin === undefined)
        pinProblems.push(`the store ${target} is not created and pinned yet (tollgate init does it)`);
      else expectedPin.TOLLGATE_STORE_ID = pin.store_id;
      if (pin !== undefined && !existsSync(target))
        pinProblems.push(`the pinned store ${target} has vanished (tollgate store info)`);
    }
    // The hosts are checked side by side (each self-test has its own throwaway store).
    const reports = await Promise.all(
      hosts.map((id) =>
        inspectHost(HOSTS[id], join(project, HOSTS[id].file), detected.get(id) ?? [], {
          project,
          loaded,
          env: io.env,
          expectedPin,
          pinProblems,
          selfTest: !flag(args, 'no-self-test'),
        }),
      ),
    );
    const ok = reports.every((r) => r.ok);
    if (flag(args, 'json')) writeJson(io, { ok, project, hosts: reports });
    else io.stdout.write(table(reports, project));
    return ok ? 0 : 1;
  },
);

function table(reports: HostReport[], project: string): string {
  if (reports.length === 0)
    return `no agent host detected for ${project} and no Tollgate entries found; install with tollgate init --hosts LIST\n`;
  const mark = (ok: boolean) => (ok ? 'yes' : 'NO');
  const rows = [
    ['host', 'installed', 'current', 'enforcing', 'file'],
    ...reports.map((r) => [r.label, mark(r.installed.ok), mark(r.current.ok), mark(r.enforcing.ok), r.file]),
  ];
  const widths = (rows[0] as string[]).map((_, i) =>
    Math.max(...rows.map((row) => (row[i] as string).length)),
  );
  const lines = rows.map((row) =>
    row
      .map((cell, i) => cell.padEnd(widths[i] as number))
      .join('  ')
      .trimEnd(),
  );
  for (const r of reports)
    for (const [name, check] of [
      ['installed', r.installed],
      ['current', r.current],
      ['enforcing', r.enforcing],
    ] as const)
      for (const p of check.problems) lines.push(`${r.label}: not ${name}: ${p}`);
  return `${lines.join('\n')}\n`;
}
