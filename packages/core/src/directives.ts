// Directives from the hosts: what the agent was told (a user's prompt, how its session started),
// recorded in the session's ledger as observations of kind `directive` under the pseudo-tool
// `directive`, so every adapter finds the one in force the same way and the audit row of each
// decision carries it with its latency. Never evidence: evidence.ts refuses a directive record
// however it is cited, and a quote found only in the directive in force is directive_is_not_evidence.
import type { Directive, Source } from '@tollgate/contracts';
import { sourceKey } from './call.js';
import type { Gate } from './gate.js';
import type { Store } from './ports.js';

export const DIRECTIVE_TOOL = 'directive';
/**
 * The directive kinds hosts record: Claude Code's UserPromptSubmit and SessionStart, the MCP proxy's
 * `_meta["tollgate/directive"]`. The newest of them is the one in force for the session.
 */
export const HOST_DIRECTIVE_KINDS = ['UserPromptSubmit', 'SessionStart', 'mcp'] as const;
/** The most of a directive kept with a call (the call schema's bound on directive.text). */
const MAX_TEXT = 65_536;

/** The ledger source a host's directives of one kind are recorded under (`UserPromptSubmit`, `SessionStart`). */
export function directiveSource(kind: string): Source {
  return { tool: DIRECTIVE_TOOL, args: { source: kind } };
}

export interface DirectiveInput {
  session: string;
  agent?: string;
  /** What kind of directive: the host event or channel it came from. */
  kind: string;
  text: string;
  recordedBy: string;
  attested: boolean;
}

export async function recordDirective(gate: Pick<Gate, 'recordObservation'>, input: DirectiveInput) {
  return gate.recordObservation({
    session: input.session,
    ...(input.agent !== undefined ? { agent: input.agent } : {}),
    source: directiveSource(input.kind),
    output: input.text,
    recordedBy: input.recordedBy,
    attested: input.attested,
    kind: 'directive',
  });
}

/** The newest directive of these kinds recorded for the session, as a call carries it. */
export async function directiveInForce(
  store: Pick<Store, 'findObservationsBySource'>,
  session: string,
  kinds: readonly string[],
): Promise<Directive | undefined> {
  const found = await Promise.all(
    kinds.map((k) => store.findObservationsBySource(session, sourceKey(directiveSource(k)), 1)),
  );
  let newest: { text: string; kind: string; at: string } | undefined;
  for (const [i, [o]] of found.entries()) {
    if (o === undefined || o.kind !== 'directive') continue;
    if (newest === undefined || o.observed_at > newest.at)
      newest = { text: o.excerpt, kind: kinds[i] ?? '', at: o.observed_at };
  }
  if (newest === undefined) return undefined;
  return { text: newest.text.slice(0, MAX_TEXT), source: newest.kind.slice(0, 256), at: newest.at };
}
