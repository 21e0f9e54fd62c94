// The rails of a call refused for unmet preconditions: the one place where the rule, why it applies
// and the exact next read or call meet. A call gated only by preconditions needs no prediction, so
// its text says what to do first and to retry; on an irreversible call the prediction guide follows.
import type { Rails } from '@tollgate/contracts';
import type { Unmet } from './preconditions.js';
import type { Channel } from './rails.js';
import { sanitiseText } from './sanitise.js';

export interface PreconditionRailsInput {
  unmet: readonly Unmet[];
  /** Whether the call is irreversible too (then a prediction is still needed after the preconditions). */
  gated: boolean;
  channel: Channel;
  describe: (ruleId: string) => string | undefined;
}

const RETRY: Record<Channel, string> = {
  'claude-code':
    'Make each read or call above (the gate records reads itself), then retry the exact same call, unchanged.',
  cli: 'Make each read above with `tollgate observe -- <read>` (or the call through `tollgate run`), then run the same command again.',
  mcp: 'Call the tools above first (the gate records what they return), then call this tool again with the same arguments.',
  http: 'Make each read or call above through the gate (or record it with POST /v1/observations), then POST /v1/check again.',
  library:
    'Make each read or call above through the gate (gate.guard / gate.recordObservation), then call again.',
};

export function preconditionRails(base: Rails, input: PreconditionRailsInput): Rails {
  const rules = [...new Set(input.unmet.map((u) => u.rule))];
  const described = rules.map((id) => input.describe(id)).find((d) => d !== undefined);
  const summary = sanitiseText(
    `Tollgate (an automated gate you can satisfy) held this call: ${input.unmet.length === 1 ? 'a precondition does' : `${input.unmet.length} preconditions do`} not hold yet in this session${described ? ` — ${described}` : ''} [${rules.join(', ')}]. Do what each line below says, then retry; it clears at once.`,
    1000,
  );
  const lines = [
    summary,
    'Not yet done:',
    ...input.unmet.map((u) => `  - [precondition_unmet] ${u.text} [${u.rule}]`),
    // Anything else the decision says (the deny ceiling reached, an override's note) follows.
    ...base.problems
      .filter((p) => p.code !== 'precondition_unmet')
      .map((p) => `  - [${p.code}] ${p.message}`),
    RETRY[input.channel],
  ];
  if (input.gated) {
    lines.push(
      'This call is also irreversible: after the preconditions hold it still needs a prediction or a decline, as below.',
    );
    lines.push(...base.text.split('\n').slice(1));
  } else {
    lines.push('No prediction is needed for this call: only the reads or calls above.');
  }
  return {
    ...base,
    summary,
    text: lines.map((l) => sanitiseText(l, 4000)).join('\n'),
  };
}
