// `tollgate ARGS`: finds the subcommand in the registry, loads only that module, runs it.
import type { CommandIO } from './command.js';
import { commands } from './commands/index.js';
import { setNoticeSink } from './notices.js';

const VERSION = '0.1.0';

export async function main(io: CommandIO): Promise<number> {
  const [name, ...rest] = io.argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(overview());
    return name === undefined ? 1 : 0;
  }
  if (name === '--version') {
    io.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    const json = rest.includes('--json');
    const message = `unknown command ${JSON.stringify(name)}`;
    const fix = `run tollgate --help for the list: ${commands.map((c) => c.name).join(', ')}`;
    if (json) io.stdout.write(`${JSON.stringify({ error: { code: 'usage', message, fix } })}\n`);
    else io.stderr.write(`tollgate: ${message}\n  fix: ${fix}\n`);
    return 1;
  }
  const { command } = await entry.load();
  // A config change waiting for a person is said on stderr, whatever the command (notices.ts).
  setNoticeSink((text) => io.stderr.write(`tollgate: note: ${text}\n`));
  return command.run({ ...io, argv: rest });
}

function overview(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'tollgate — a predict-or-decline gate for irreversible tool calls',
    '',
    'Usage: tollgate COMMAND [options] [-- CMD...]',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command takes --help and --json. Store: TOLLGATE_DB; config: tollgate.config.yaml or TOLLGATE_CONFIG;',
    "session: --session, TOLLGATE_SESSION, or the host hook's session id.",
    '',
  ].join('\n');
}
