// tollgate classify: which rules a command matches and whether it is gated. No store, no session.
// --batch reads JSON lines {"command": "..."} and writes one result line each (scripts/corpus.mjs).
import { flag, type ParsedArgs } from '../args.js';
import type { CommandIO } from '../command.js';
import { UsageError } from '../errors.js';
import { openPolicy } from '../runtime.js';
import { commandLine, defineCommand, writeJson } from '../support.js';
import { classifyBatch } from './classify-batch.js';
import { classifyCommand } from './classify-result.js';

export const command = defineCommand(
  {
    name: 'classify',
    summary: 'classify a command (no store)',
    options: { batch: 'boolean', command: 'string' },
    usage: `
Usage: tollgate classify [--json] -- CMD...
       tollgate classify [--json] --command STR
       tollgate classify --batch < lines.jsonl

Classifies a shell command against the policy in force: irreversible, unknown-dynamic (gated like
irreversible), read-only or unmatched, with the rules that decided and the gated segment.
Exit code 0 whatever the class (use --json and read "gated").

  --json           print {"irreversible", "gated", "class", "rules", "segment"?} as JSON
  --command STR    the command as one string instead of words after --
  --batch          read JSON lines {"command": "..."} on stdin; write one JSON result per line
                   (a line that is not such an object gets {"error": ..., "gated": true, ...})
`,
  },
  async (args: ParsedArgs, io: CommandIO) => {
    const { policy } = openPolicy(io.cwd, io.env);
    if (flag(args, 'batch')) {
      if (args.rest !== undefined || args.options.has('command'))
        throw new UsageError('--batch reads commands from stdin', 'drop the command, or drop --batch');
      await classifyBatch(policy, io.stdin, io.stdout);
      return 0;
    }
    const { command } = commandLine(args, 'classify');
    const result = classifyCommand(policy, command);
    if (flag(args, 'json')) writeJson(io, result);
    else {
      const rules = result.rules.length > 0 ? `  [${result.rules.join(', ')}]` : '';
      const segment = result.segment !== undefined ? `\n  gated segment: ${result.segment}` : '';
      io.stdout.write(`${result.class}${result.gated ? ' (gated)' : ''}${rules}${segment}\n`);
    }
    return 0;
  },
);
