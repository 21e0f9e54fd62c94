// tollgate uninstall: takes Tollgate's hooks out of the agent host configs again. A file still exactly
// as tollgate init wrote it gets its backup back byte for byte (or is deleted, when init created it);
// a file changed since keeps everything but Tollgate's entries. Idempotent; a person only, always:
// removing the hooks switches the gate off.
import { join } from 'node:path';
import { flag, option, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { confirmed } from '../install/confirm.js';
import { HOST_IDS, HOSTS, type HostId, parseHostList } from '../install/hosts.js';
import { installDir, readManifest, writeManifest } from '../install/manifest.js';
import { applyUninstall, changeDiff, type FileChange, planUninstall } from '../install/plan.js';
import { needPerson } from '../person-check.js';
import { findConfig } from '../runtime.js';
import { defineCommand, writeJson } from '../support.js';

const usage = `
Usage: tollgate uninstall [--hosts LIST] [--yes] [--dry-run] [--json]

Takes Tollgate's hooks out of each host file (all hosts, or --hosts claude-code,codex,...):
  restore          the file is exactly what tollgate init wrote: its backup (kept under the state
                   directory) comes back byte for byte, or the file is deleted if init created it
  remove-entries   the file changed since (or was installed by an older tollgate): only Tollgate's
                   entries are removed, every other key and hook is kept
Running it again changes nothing. The config, the store and the audit trail are left in place.
A person only, as for override (an operator token, or a terminal no agent host runs); --dry-run
prints the plan as a diff and needs no one. Without --yes it asks y/N at a terminal, else refuses.
`;

export const command = defineCommand(
  {
    name: 'uninstall',
    summary: "a person: take Tollgate's hooks out of the agent host configs",
    options: { hosts: 'string', yes: 'boolean', 'dry-run': 'boolean' },
    usage,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    if (args.positionals.length > 0)
      throw new UsageError(
        `unexpected ${JSON.stringify(args.positionals[0])}`,
        'see tollgate uninstall --help',
      );
    const loaded = findConfig(io.cwd, io.env);
    const project = loaded.root;
    const listed = option(args, 'hosts');
    let hosts: readonly HostId[] = HOST_IDS;
    if (listed !== undefined) {
      const parsed = parseHostList(listed);
      if ('problem' in parsed) throw new UsageError(parsed.problem, 'e.g. --hosts claude-code,codex');
      hosts = parsed.hosts;
    }
    const dir = installDir(project, io.env);
    const manifest = readManifest(dir);
    // Every file of those hosts: the project's, and any other the manifest knows (--settings PATH).
    const files = new Map<string, HostId>();
    for (const id of hosts) files.set(join(project, HOSTS[id].file), id);
    for (const [file, entry] of Object.entries(manifest.files))
      if (hosts.includes(entry.host)) files.set(file, entry.host);
    const changes = [...files].map(([file, id]) => planUninstall(HOSTS[id], file, manifest.files[file]));
    const todo = changes.filter((c) => c.action !== 'none');
    const json = flag(args, 'json');
    if (flag(args, 'dry-run')) {
      report(io, json, changes, true);
      return 0;
    }
    needPerson(loaded, io, 'uninstalling the hooks');
    if (todo.length > 0) {
      if (!flag(args, 'yes') && io.interactive === true)
        for (const c of todo) io.stderr.write(`${changeDiff(c)}\n`);
      if (!(await confirmed(io, flag(args, 'yes'), 'uninstall'))) {
        io.stderr.write('nothing was changed\n');
        return 1;
      }
    }
    for (const c of todo) applyUninstall(c, manifest);
    // Forget files that are gone or hold nothing of Tollgate's any more.
    for (const c of changes) if (c.action === 'none' && manifest.files[c.file]) applyUninstall(c, manifest);
    writeManifest(dir, manifest);
    report(io, json, changes, false);
    return 0;
  },
);

function report(io: CommandIO, json: boolean, changes: FileChange[], dryRun: boolean): void {
  if (json) {
    writeJson(io, {
      dry_run: dryRun,
      hosts: changes.map((c) => ({
        host: c.host,
        file: c.file,
        action: c.action,
        ...(c.note ? { note: c.note } : {}),
        ...(dryRun && c.action !== 'none' ? { diff: changeDiff(c) } : {}),
      })),
    });
    return;
  }
  const verb = dryRun ? 'would ' : '';
  const lines = changes.map((c) =>
    c.action === 'none'
      ? `${HOSTS[c.host].label}: nothing of Tollgate's in ${c.file}`
      : `${HOSTS[c.host].label}: ${verb}${c.action} ${c.file}${c.note ? ` (${c.note})` : ''}`,
  );
  if (dryRun) for (const c of changes) if (c.action !== 'none') lines.push(changeDiff(c));
  io.stdout.write(`${lines.join('\n')}\n`);
}
