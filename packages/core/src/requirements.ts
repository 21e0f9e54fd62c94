// What the matched rules ask of a call: how young evidence must be, whether it must be attested,
// whether a decline needs attempts, and which reads and probes to suggest, rendered from the call.
import type { Call, Source } from '@tollgate/contracts';
import type { Classification } from './classify.js';
import { type Relevance, relevanceFor } from './evidence-relevance.js';
import { sanitiseText, shellQuoted } from './sanitise.js';
import { SESSION_CODE } from './session-code.js';
import { SESSION_WRITTEN } from './session-files.js';
import { PROTECTED_ZONES } from './zones.js';

/** Reads named for the session's unread scripts (a command may run dozens of files). */
const MAX_SCRIPT_READS = 8;

export interface Requirements {
  maxAgeS: number;
  requireAttested: boolean;
  requiresAttempts: boolean;
  /** Suggested reads, rendered from sanitised call fields. */
  reads: Source[];
  /** Post-state probes the gate may run after dispatch. */
  probes: Source[];
  /** Which reads count as evidence for this call. */
  relevance: Relevance;
  /** Where the call runs, when the adapter said: a shell read made elsewhere is no evidence (evidence.ts). */
  cwd?: string;
}

export function requirementsFor(
  classification: Classification,
  call: Pick<Call, 'tool' | 'action' | 'args'>,
  defaultMaxAgeS: number,
  /** Where the call runs: relative paths of reads resolve there. */
  where: { cwd?: string } = {},
): Requirements {
  // Protected writes first, so a read suggested for `{{writes.0.path}}` names the file that matters.
  const writes = [...(classification.writes ?? [])].sort(
    (a, b) => Number(PROTECTED_ZONES.includes(b.zone)) - Number(PROTECTED_ZONES.includes(a.zone)),
  );
  const scope = {
    args: call.args,
    segment: classification.segmentFacts,
    tool: call.tool,
    action: call.action,
    writes,
  };
  let maxAgeS = Number.POSITIVE_INFINITY;
  let requireAttested = false;
  let requiresAttempts = false;
  const reads = new Map<string, Source>();
  const probes = new Map<string, Source>();
  for (const { rule } of classification.gating) {
    maxAgeS = Math.min(maxAgeS, rule.evidence?.max_age_s ?? defaultMaxAgeS);
    requireAttested ||= rule.evidence?.require_attested === true;
    requiresAttempts ||= rule.decline?.requires_attempts !== false;
    for (const read of rule.evidence?.reads ?? []) addRendered(reads, read, scope);
    if (rule.probe !== undefined) addRendered(probes, rule.probe, scope);
  }
  // A script the session wrote and has not read since: the read that lets it run is of that file;
  // code of the session's a runner loads: the read that backs a prediction of what it does.
  for (const d of classification.facts?.dynamic ?? []) {
    const file =
      d.kind === SESSION_WRITTEN ? d.text : d.kind === SESSION_CODE ? d.text.split(': ')[0] : undefined;
    if (file !== undefined && reads.size < MAX_SCRIPT_READS) {
      const read = `cat ${shellQuoted(file)}`;
      reads.set(read, read);
    }
  }
  if (classification.gating.length === 0) requiresAttempts = true;
  return {
    maxAgeS: Number.isFinite(maxAgeS) ? maxAgeS : defaultMaxAgeS,
    requireAttested,
    requiresAttempts,
    reads: [...reads.values()],
    probes: [...probes.values()],
    // A read of what the call writes is related to it.
    relevance: relevanceFor(classification, {
      tool: call.tool,
      args: call.args,
      writes: writes.map((w) => w.path),
      ...where,
    }),
    ...(where.cwd !== undefined ? { cwd: where.cwd } : {}),
  };
}

function addRendered(into: Map<string, Source>, template: Source, scope: object): void {
  const rendered = renderSource(template, scope);
  if (rendered === undefined) return;
  into.set(typeof rendered === 'string' ? rendered : JSON.stringify(rendered), rendered);
}

/** Renders {{dotted.path}} placeholders; a read whose placeholder has no value is dropped. */
export function renderSource(template: Source, scope: object): Source | undefined {
  if (typeof template === 'string') return renderString(template, scope, shellQuoted);
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(template.args ?? {})) {
    if (typeof value !== 'string') args[key] = value;
    else {
      const rendered = renderString(value, scope, (v) => sanitiseText(v));
      if (rendered === undefined) return undefined;
      args[key] = rendered;
    }
  }
  return { tool: template.tool, args };
}

function renderString(
  template: string,
  scope: object,
  escapeValue: (v: string) => string,
): string | undefined {
  let missing = false;
  const out = template.replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (_, path: string) => {
    const value = lookup(scope, path);
    if (value === undefined || value === null || typeof value === 'object') {
      missing = true;
      return '';
    }
    return escapeValue(String(value));
  });
  return missing ? undefined : sanitiseText(out, 400);
}

function lookup(scope: object, path: string): unknown {
  let cur: unknown = scope;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}
