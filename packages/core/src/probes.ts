// Which claim subjects of a dispatched decision the gate may re-read itself: a rule's probe, or a
// command or tool the policy classifies as read-only. Everything else waits for the client's report.
import type { AuditRow, Call, Source } from '@tollgate/contracts';
import { sourceKey } from './call.js';
import type { Classification, ToolHints } from './classify.js';
import { requirementsFor } from './requirements.js';

type ClassifyFn = (call: Pick<Call, 'tool' | 'action' | 'args'>, hints?: ToolHints) => Classification;

export function probeSubjects(row: AuditRow, classify: ClassifyFn, defaultMaxAgeS: number): Source[] {
  const claims = row.prediction?.claims ?? [];
  if (claims.length === 0 || row.call === undefined) return [];
  const probes = ruleProbes(row.call, classify, defaultMaxAgeS);
  const out = new Map<string, Source>();
  for (const { subject } of claims) {
    const key = sourceKey(subject);
    if (out.has(key)) continue;
    if (probes.has(key) || isRead(subject, classify)) out.set(key, subject);
  }
  return [...out.values()];
}

// The rule probes rendered from the call as stored. A call too large for its audit row is stored
// truncated, without args: nothing can be rendered from it, so only read-only subjects are probed.
function ruleProbes(stored: NonNullable<AuditRow['call']>, classify: ClassifyFn, defaultMaxAgeS: number) {
  const args = (stored as { args?: unknown }).args;
  if (args === null || typeof args !== 'object' || Array.isArray(args)) return new Set<string>();
  const call = stored as Pick<Call, 'tool' | 'action' | 'args'>;
  try {
    return new Set(requirementsFor(classify(call), call, defaultMaxAgeS).probes.map(sourceKey));
  } catch {
    return new Set<string>();
  }
}

function isRead(subject: Source, classify: ClassifyFn): boolean {
  try {
    return classify(asCall(subject)).class === 'read-only';
  } catch {
    return false;
  }
}

export function asCall(subject: Source): Pick<Call, 'tool' | 'args'> {
  return typeof subject === 'string'
    ? { tool: 'shell', args: { command: subject } }
    : { tool: subject.tool, args: subject.args ?? {} };
}
