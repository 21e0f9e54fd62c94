// Validation of the two documents an irreversible call can carry: a prediction (schema, falsifiable
// claims, verified evidence, bound to this call) or a decline (schema, attempts found in the ledger).
import type { Claim, Decline, Prediction, Reason, VerifiedEvidence } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { falsifiabilityProblems } from './claims.js';
import { type EvidenceContext, verifyCitations } from './evidence.js';
import { textLeaves } from './quote.js';
import { reason } from './reasons.js';
import type { Requirements } from './requirements.js';

export interface TicketContext extends EvidenceContext {
  digest: string;
  requirements: Requirements;
  /** False when a claim's subject would itself change state. */
  subjectIsSafe: (claim: Claim) => boolean;
  /** The decoded values the gated call carries (its command line and words, or its arguments). */
  callTexts: string[];
}

export type TicketCheck<T> =
  | { ok: true; doc: T; verified: VerifiedEvidence[] }
  | { ok: false; reasons: Reason[] };

export async function checkPrediction(
  doc: unknown,
  path: string,
  ctx: TicketContext,
): Promise<TicketCheck<Prediction>> {
  const schema = schemaCheck<Prediction>('prediction', doc, path);
  if (!schema.ok) return schema;
  const prediction = schema.doc;
  const reasons: Reason[] = [];
  const bound = bindingProblem(prediction.call_digest, ctx.digest, path);
  if (bound) return { ok: false, reasons: [bound] };
  reasons.push(...falsifiabilityProblems(prediction.claims, `${path}/claims`, ctx.subjectIsSafe));
  // Each dispatch needs evidence observed after the previous dispatch of the same call.
  const last = await ctx.store.lastConsumedAt(ctx.session, ctx.digest);
  const carried = {
    call: ctx.callTexts,
    subjects: prediction.claims.flatMap((c) =>
      typeof c.subject === 'string' ? [c.subject] : textLeaves(c.subject.args ?? {}, [c.subject.tool]),
    ),
  };
  const evidence = await verifyCitations(prediction.evidence, `${path}/evidence`, {
    ...ctx,
    carried,
    ...(last === undefined ? {} : { notAfter: last }),
  });
  reasons.push(...evidence.problems);
  if (evidence.problems.length === 0) {
    for (const need of ctx.relevance?.required ?? []) {
      if (evidence.satisfied.has(need.key)) continue;
      reasons.push(
        reason(
          'evidence_required_missing',
          `this rule requires evidence from ${need.describe}; make that read through the gate and cite it`,
          `${path}/evidence`,
        ),
      );
    }
  }
  return reasons.length > 0
    ? { ok: false, reasons }
    : { ok: true, doc: prediction, verified: evidence.verified };
}

export async function checkDecline(
  doc: unknown,
  path: string,
  ctx: TicketContext,
): Promise<TicketCheck<Decline>> {
  const schema = schemaCheck<Decline>('decline', doc, path);
  if (!schema.ok) return schema;
  const decline = schema.doc;
  const bound = bindingProblem(decline.call_digest, ctx.digest, path);
  if (bound) return { ok: false, reasons: [bound] };
  if (decline.attempted_observations.length === 0) {
    if (!ctx.requirements.requiresAttempts) return { ok: true, doc: decline, verified: [] };
    return {
      ok: false,
      reasons: [
        reason(
          'decline_without_attempts',
          'a decline must list the reads you already tried (attempted_observations); make at least one read through the gate and cite it',
          `${path}/attempted_observations`,
        ),
      ],
    };
  }
  const attempts = await verifyCitations(decline.attempted_observations, `${path}/attempted_observations`, {
    ...ctx,
    carried: { call: ctx.callTexts, subjects: [] },
  });
  const reasons = attempts.problems.map((p) =>
    p.code === 'evidence_not_observed' ? { ...p, code: 'attempt_not_observed' as const } : p,
  );
  return reasons.length > 0
    ? { ok: false, reasons }
    : { ok: true, doc: decline, verified: attempts.verified };
}

function schemaCheck<T>(name: 'prediction' | 'decline', doc: unknown, path: string): TicketCheck<T> {
  const version = (doc as { schema?: unknown } | null)?.schema;
  if (version !== undefined && version !== `tollgate.${name}/v1`) {
    return {
      ok: false,
      reasons: [
        reason(
          'schema_invalid',
          `unknown ${name} schema version ${JSON.stringify(version)}; this gate speaks tollgate.${name}/v1`,
          `${path}/schema`,
        ),
      ],
    };
  }
  const result = validate<T>(name, doc);
  if (result.valid) return { ok: true, doc: result.data, verified: [] };
  return {
    ok: false,
    reasons: result.problems.map((p) =>
      reason('schema_invalid', `${name}: ${p.message}`, `${path}${p.path}`),
    ),
  };
}

function bindingProblem(declared: string | undefined, digest: string, path: string): Reason | undefined {
  if (declared === undefined || declared === digest) return undefined;
  return reason(
    'bound_to_other_call',
    `this document was made for the call with digest ${declared.slice(0, 12)}…, not this one (${digest.slice(0, 12)}…); a prediction covers exactly one call`,
    `${path}/call_digest`,
  );
}
