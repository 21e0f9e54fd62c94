// tollgate predict: file a prediction bound to one command (see ticket.ts).
import { list, option, type ParsedArgs } from '../args.js';
import { UsageError } from '../errors.js';
import { sourceValue, ticketCommand, typedValue } from './ticket.js';

export const command = ticketCommand('prediction', {
  name: 'predict',
  summary: 'file a prediction for a command',
  options: {
    claim: 'list',
    op: 'list',
    value: 'list',
    evidence: 'list',
    observation: 'list',
    quote: 'list',
    rationale: 'string',
  },
  usage: `
Usage: tollgate predict --for CMD (--file F | --json-doc JSON | document flags) [--json] [--session S]
       tollgate predict (--file F | --json-doc JSON | document flags) -- CMD...
       tollgate predict --tool NAME --args JSON (--file F | --json-doc JSON | document flags)

Files a prediction for exactly this command: what will be true after it runs (claims on reads the
gate can re-run), backed by reads the gate recorded (tollgate observe, or the Claude Code hook).
Core checks it now (evidence seen, fresh, quotes present, claims falsifiable); it is used, once, by
the next \`tollgate run\` of the same command in the same session.

Exit codes: 0 recorded (or the command is not gated), 2 invalid (the reasons are printed), 1 usage.

  --for CMD          the command the prediction is for, as one string
  --tool NAME        instead of a command: a host tool call, e.g. an MCP tool as Claude Code names it
  --args JSON        (mcp__server__write_file) and its exact arguments as one JSON object; bound to the
                     same call the Claude Code hook checks, so the next identical call uses it
  --file F           the prediction document (JSON), or - for stdin
  --json-doc JSON    the prediction document inline
  Document flags (instead of a document), in order:
  --claim SUBJECT --op OP --value V     a claim (repeat the triple); OP: eq ne contains not_contains
                                        matches lt le gt ge exists absent; V is a number/boolean when it
                                        looks like one (exists/absent take no --value)
  --evidence SOURCE --quote Q           evidence by source (a command string, or {"tool","args"} JSON)
  --observation ID --quote Q            evidence by observation id
  --rationale TEXT                      why
  --session S, --agent A, --json        as for tollgate check

Example:
  tollgate predict --for 'git push --force origin main' \\
    --claim 'git ls-remote origin refs/heads/main' --op contains --value 3f2a9c1 \\
    --evidence 'git rev-parse HEAD' --quote 3f2a9c1
`,
  fromFlags: predictionFromFlags,
});

function predictionFromFlags(args: ParsedArgs): unknown {
  const claims: Record<string, unknown>[] = [];
  const evidence: Record<string, unknown>[] = [];
  let claim: Record<string, unknown> | undefined;
  let item: Record<string, unknown> | undefined;
  for (const { name, value } of args.sequence) {
    if (name === 'claim') {
      claim = { subject: sourceValue(value) };
      claims.push(claim);
    } else if (name === 'op' || name === 'value') {
      if (!claim)
        throw new UsageError(`--${name} before any --claim`, 'write --claim SUBJECT --op OP --value V');
      claim[name] = name === 'value' ? typedValue(value) : value;
    } else if (name === 'evidence' || name === 'observation') {
      item = name === 'evidence' ? { source: sourceValue(value) } : { observation: value };
      evidence.push(item);
    } else if (name === 'quote') {
      if (!item)
        throw new UsageError(
          '--quote before any --evidence/--observation',
          'write --evidence SOURCE --quote Q',
        );
      item.quote = value;
    }
  }
  const rationale = option(args, 'rationale');
  if (
    claims.length === 0 &&
    evidence.length === 0 &&
    rationale === undefined &&
    list(args, 'quote').length === 0
  )
    return undefined;
  return { claims, evidence, ...(rationale !== undefined ? { rationale } : {}) };
}
