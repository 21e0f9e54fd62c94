// tollgate decline: file a decline bound to one command (see ticket.ts). A decline is a success:
// the call is recorded as declined and does not run.
import { list, option, type ParsedArgs } from '../args.js';
import { sourceValue, ticketCommand } from './ticket.js';

export const command = ticketCommand('decline', {
  name: 'decline',
  summary: 'file a decline for a command',
  options: {
    irreducible: 'string',
    'would-change-my-mind': 'list',
    attempted: 'list',
    'attempted-observation': 'list',
  },
  usage: `
Usage: tollgate decline --for CMD (--file F | --json-doc JSON | document flags) [--json] [--session S]
       tollgate decline --tool NAME --args JSON (--file F | --json-doc JSON | document flags)
       tollgate decline (--file F | --json-doc JSON | document flags) -- CMD...

Files a decline for exactly this command: what cannot be known right now, what evidence would change
your mind, and which reads you already attempted (checked against the ledger). The next run of the
command is recorded as declined and nothing runs (exit 3). Declining is a fine outcome, not a failure.

Exit codes: 0 recorded (or the command is not gated), 2 invalid (the reasons are printed), 1 usage.

  --for CMD                      the command the decline is for, as one string
  --tool NAME --args JSON        instead: a host tool call (an MCP tool as Claude Code names it,
                                 mcp__server__tool) and its exact arguments, as the hook binds it
  --file F | --json-doc JSON     the decline document
  Document flags:
  --irreducible TEXT             what you cannot know before acting
  --would-change-my-mind TEXT    a read result that would let you predict (repeat)
  --attempted SOURCE             a read you attempted (command string or {"tool","args"} JSON; repeat)
  --attempted-observation ID     a recorded observation you attempted (repeat)
  --session S, --agent A, --json as for tollgate check
`,
  fromFlags: declineFromFlags,
});

function declineFromFlags(args: ParsedArgs): unknown {
  const irreducible = option(args, 'irreducible');
  const minds = list(args, 'would-change-my-mind');
  const attempted = [
    ...list(args, 'attempted').map((s) => ({ source: sourceValue(s) })),
    ...list(args, 'attempted-observation').map((id) => ({ observation: id })),
  ];
  if (irreducible === undefined && minds.length === 0 && attempted.length === 0) return undefined;
  return {
    ...(irreducible !== undefined ? { irreducible } : {}),
    would_change_my_mind: minds,
    attempted_observations: attempted,
  };
}
