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
  const call = row.call as Pick<Call, 'tool' | 'action' | 'args'>;
  const probes = new Set(requirementsFor(classify(call), call, defaultMaxAgeS).probes.map(sourceKey));
  const out = new Map<string, Source>();
  for (const { subject } of claims) {
    const key = sourceKey(subject);
    if (out.has(key)) continue;
    if (probes.has(key) || classify(asCall(subject)).class === 'read-only') out.set(key, subject);
  }
  return [...out.values()];
}

export function asCall(subject: Source): Pick<Call, 'tool' | 'args'> {
  return typeof subject === 'string'
    ? { tool: 'shell', args: { command: subject } }
    : { tool: subject.tool, args: subject.args ?? {} };
}
