// The short text a host shows the agent when its session starts: the gate is on, which rules and
// preconditions are active, and how to read, predict and decline. Refusals keep their own rails;
// this only says what to expect.
import type { Policy } from './policy/types.js';
import { sanitiseText } from './sanitise.js';

const MAX_LISTED = 8;

export function sessionBrief(policy: Policy, mode: 'enforce' | 'observe'): string {
  const rules = policy.rules.map((c) => c.rule);
  const gating = rules.filter((r) => r.class === 'irreversible' || r.class === 'unknown-dynamic');
  const preconditions = rules.filter((r) => r.requires !== undefined);
  const lines = [
    `Tollgate is on for this session (${mode === 'observe' ? 'observe mode: it logs what it would refuse, and blocks nothing' : 'enforce mode'}). It checks each tool call against ${rules.length} rules.`,
    `${gating.length} rules mark calls as irreversible (for example: ${gating
      .slice(0, MAX_LISTED)
      .map((r) => r.id)
      .join(
        ', ',
      )}). Such a call needs a prediction backed by reads you made through the gate, or a decline; otherwise it is refused with rails that say what to read and how to file one.`,
  ];
  if (preconditions.length > 0) {
    lines.push('Preconditions in force (each must hold in this session before the calls it names):');
    for (const r of preconditions.slice(0, MAX_LISTED)) {
      const whys = (r.requires ?? []).map((q) => q.why).filter((w): w is string => w !== undefined);
      lines.push(`  - ${r.id}: ${r.description}${whys.length > 0 ? ` (${whys.join('; ')})` : ''}`);
    }
  }
  lines.push(
    'Read: make reads as ordinary tool calls (Read, Grep, a read-only shell command); the gate records their output, and only recorded reads count as evidence. What you were told (a prompt, a ticket) is not evidence.',
    'Predict: tollgate predict --for \'<the exact command>\' --json-doc \'{"claims": [...], "evidence": [{"source": "<a read you made>", "quote": "<what it showed>"}]}\', then retry the call unchanged.',
    'Decline: tollgate decline --for \'<the exact command>\' --json-doc \'{"irreducible": "...", "would_change_my_mind": [...], "attempted_observations": [...]}\' — a decline is a fine answer: it is recorded and nothing runs.',
  );
  return lines.map((l) => sanitiseText(l, 1000)).join('\n');
}
