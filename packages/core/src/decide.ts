// The decision for a gated call: an operator override, the deny ceiling, then the envelope (inline
// or filed earlier) validated and consumed exactly once.
import type { Call, Claim, Reason, Source, SuggestedRead, VerifiedEvidence } from '@tollgate/contracts';
import { parseShell } from '@tollgate/shell';
import { digestOf } from './canonical.js';
import { type Classification, classify, isGated, SHELL_TOOL } from './classify.js';
import type { GateContext } from './context.js';
import type { CheckOptions } from './gate.js';
import type { Consumption, TicketRecord } from './ports.js';
import { checkPreconditions, type Unmet } from './preconditions.js';
import { textLeaves } from './quote.js';
import { reason } from './reasons.js';
import { type Requirements, requirementsFor } from './requirements.js';
import { CEILING_REVIEW_RULE, reviewDecision } from './review.js';
import { suggestedReadsMade } from './suggested-reads.js';
import { checkDecline, checkPrediction, type TicketCheck, type TicketContext } from './tickets.js';
import { elsewhereText, ticketsElsewhere } from './tickets-elsewhere.js';

export interface Decision {
  /** pass: a call gated only by preconditions, which hold (or an override let it through). */
  outcome: 'pass' | 'dispatch' | 'declined' | 'rejected';
  reasons: Reason[];
  /** The preconditions that did not hold, for the rails (preconditions.ts). */
  unmet?: Unmet[];
  requirements: Requirements;
  predictionId?: string;
  declineId?: string;
  overrideId?: string;
  /** The review request this call filed, waits on, or uses up (review.ts). */
  reviewId?: string;
  escalation?: 'ask_human' | 'hard_deny';
  /** The ticket to use up, atomically with the decision's audit row (not set on a dry look). */
  consume?: Consumption;
  /** The document as given, for the audit row. */
  prediction?: unknown;
  decline?: unknown;
  evidence?: VerifiedEvidence[];
  /** On a decline: the reads the rules suggested and whether the session made each (suggested-reads.ts). */
  suggestedReads?: SuggestedRead[];
}

export async function decide(
  ctx: GateContext,
  call: Call,
  digest: string,
  classification: Classification,
  opts: CheckOptions,
): Promise<Decision> {
  const { store } = ctx;
  const now = ctx.clock.now();
  const requirements = requirementsFor(
    classification,
    call,
    ctx.defaultMaxAgeS,
    opts.cwd !== undefined ? { cwd: opts.cwd } : {},
  );

  const gated = isGated(classification.class);
  const overrides = await store.findOverrides(call.session, ruleIdsOf(classification), digest, now);
  const override = overrides[0];
  if (override) {
    if (!opts.dryRun) await store.resetRejections(call.session, digest);
    const until = new Date(override.expires_at).toISOString();
    const applied: Decision = {
      outcome: gated ? 'dispatch' : 'pass',
      reasons: [
        reason(
          'override_applied',
          `operator ${override.operator} let this through (until ${until}): ${override.reason}`,
        ),
      ],
      requirements,
      overrideId: override.id,
    };
    // The override does not need the prediction filed for this call, but a valid one is still used
    // and recorded, so its claims are probed and calibration keeps counting.
    if (!gated) return applied;
    const filed = await store.findOpenPrediction(call.session, digest);
    if (!filed) return applied;
    const checked = await checkPrediction(
      filed.doc,
      '/prediction',
      ticketContext(ctx, call, digest, requirements, now),
    );
    if (!checked.ok) return applied;
    const used = { ...accepted('prediction', filed.id, checked, { requirements }), ...applied };
    return opts.dryRun ? used : { ...used, consume: { kind: 'prediction', id: filed.id } };
  }

  // A person answers this call first (review.ts): an approval lets it through once; otherwise the
  // refusal names the request. Waiting for a person is not a loop, so it does not count to the ceiling.
  if (classification.review !== undefined)
    return reviewDecision(ctx, call, digest, classification.review, { gated, requirements }, opts);

  const streak = await store.getRejections(call.session, digest);
  if (streak >= ctx.denyCeiling) {
    const stop = ceiling(ctx, streak, requirements);
    if (ctx.escalation !== 'ask_human') return stop;
    const asked = await reviewDecision(
      ctx,
      call,
      digest,
      { rule: CEILING_REVIEW_RULE },
      { gated, requirements, reasons: stop.reasons },
      opts,
    );
    if (asked.outcome === 'rejected') return { ...asked, escalation: ctx.escalation };
    if (!opts.dryRun) await store.resetRejections(call.session, digest);
    return asked;
  }

  // Preconditions first: unmet, nothing is consumed (the prediction waits for the retry); on an
  // irreversible call they come on top of the envelope.
  if (classification.preconditions !== undefined) {
    const pre = await checkPreconditions(classification.preconditions, {
      store,
      session: call.session,
      now,
      ...(ctx.flushAudit !== undefined ? { beforeDispatches: ctx.flushAudit } : {}),
    });
    if (!pre.met)
      return refused(ctx, call, digest, requirements, opts, preconditionRefusal(pre.unmet, requirements));
    if (!gated) {
      // Met at last: the streak of refusals it caused ends here.
      if (streak > 0 && !opts.dryRun && ctx.mode === 'enforce')
        await store.resetRejections(call.session, digest);
      return { outcome: 'pass', reasons: [], requirements };
    }
  }

  const tctx = ticketContext(ctx, call, digest, requirements, now);
  const decision = operatorOnly(
    classification,
    await evaluateEnvelope(ctx, call, digest, requirements, tctx, opts),
  );
  if (decision.outcome === 'declined') {
    // A decline ends the loop; a dispatch does not until its outcome comes back ok.
    if (!opts.dryRun) await store.resetRejections(call.session, digest);
    return { ...decision, suggestedReads: await suggestedReadsMade(store, call.session, requirements.reads) };
  }
  if (decision.outcome !== 'rejected') return decision;
  return refused(ctx, call, digest, requirements, opts, decision);
}

/** A refusal counts toward the deny ceiling (in enforce mode, not on a dry look) and escalates at it. */
async function refused(
  ctx: GateContext,
  call: Call,
  digest: string,
  requirements: Requirements,
  opts: CheckOptions,
  decision: Decision,
): Promise<Decision> {
  const { store } = ctx;
  if (opts.dryRun || ctx.mode === 'observe') return decision;
  const count = await store.bumpRejections(call.session, digest);
  if (count < ctx.denyCeiling) return decision;
  const escalated = ceiling(ctx, count, requirements);
  const reasons = [...decision.reasons, ...escalated.reasons];
  if (ctx.escalation === 'ask_human') {
    // At the ceiling a person is asked (review.ts): the refusal names the request filed for it.
    // Only the refusal is taken from it: an approval given earlier is used on the next attempt.
    const asked = await reviewDecision(
      ctx,
      call,
      digest,
      { rule: CEILING_REVIEW_RULE },
      { gated: true, requirements, reasons },
      opts,
    );
    if (asked.outcome === 'rejected')
      return {
        ...decision,
        reasons: asked.reasons,
        ...(asked.reviewId ? { reviewId: asked.reviewId } : {}),
        escalation: ctx.escalation,
      };
  }
  return { ...decision, reasons, escalation: ctx.escalation };
}

/** Every rule that applies to the call: the classifying ones, then those whose preconditions it must meet. */
export function ruleIdsOf(classification: Classification): string[] {
  const pre = classification.preconditions;
  if (pre === undefined) return classification.rules;
  return [...new Set([...classification.rules, ...pre.map((c) => c.rule.id)])];
}

function preconditionRefusal(unmet: Unmet[], requirements: Requirements): Decision {
  return {
    outcome: 'rejected',
    requirements,
    unmet,
    reasons: unmet.map((u) =>
      reason('precondition_unmet', `${u.text} [${u.rule}]`, `/preconditions/${u.rule}`),
    ),
  };
}

/**
 * A rule marked operator_only (the gate's own files, the host's hooks) cannot be satisfied by the
 * agent: a valid prediction still does not dispatch, and nothing is consumed. A decline stands.
 */
function operatorOnly(classification: Classification, decision: Decision): Decision {
  const rules = classification.gating.filter((c) => c.rule.operator_only === true).map((c) => c.rule.id);
  if (rules.length === 0 || decision.outcome === 'declined') return decision;
  const why = reason(
    'operator_required',
    `only an operator can let this call through [${rules.join(', ')}]: it changes the gate itself or the agent host's hooks, so no prediction is enough. Ask a person to run \`tollgate override --rule ${rules[0]} --reason … --ttl 15m\` in their own terminal, or leave these files alone`,
  );
  const { consume: _consume, predictionId: _p, prediction: _d, evidence: _e, ...rest } = decision;
  return {
    ...rest,
    outcome: 'rejected',
    reasons: [why, ...(decision.outcome === 'rejected' ? decision.reasons : [])],
  };
}

function ceiling(ctx: GateContext, count: number, requirements: Requirements): Decision {
  const next =
    ctx.escalation === 'ask_human'
      ? 'ask a human to review it; an operator can grant a scoped override'
      : 'it stays denied in this session';
  return {
    outcome: 'rejected',
    reasons: [
      reason(
        'deny_ceiling_reached',
        `this exact call was rejected ${count} times in this session; stop retrying — ${next}`,
      ),
    ],
    requirements,
    escalation: ctx.escalation,
  };
}

async function evaluateEnvelope(
  ctx: GateContext,
  call: Call,
  digest: string,
  requirements: Requirements,
  tctx: TicketContext,
  opts: CheckOptions,
): Promise<Decision> {
  const base = { requirements };
  if (opts.envelope !== undefined) {
    const env = opts.envelope as Record<string, unknown> | null;
    const keys = env !== null && typeof env === 'object' && !Array.isArray(env) ? Object.keys(env) : [];
    if (keys.length !== 1 || (keys[0] !== 'prediction' && keys[0] !== 'decline')) {
      return {
        ...base,
        outcome: 'rejected',
        reasons: [
          reason(
            'schema_invalid',
            'the envelope must be exactly one of {"prediction": {...}} or {"decline": {...}}',
            '/envelope',
          ),
        ],
      };
    }
    const kind = keys[0] as 'prediction' | 'decline';
    const doc = env?.[kind];
    const checked =
      kind === 'prediction'
        ? await checkPrediction(doc, '/envelope/prediction', tctx)
        : await checkDecline(doc, '/envelope/decline', tctx);
    if (!checked.ok) {
      if (kind === 'prediction' && (await alreadyUsed(ctx, call, digest, checked.reasons, docDigest(doc))))
        return lostRace({ ...base, outcome: 'rejected', reasons: [] });
      return {
        ...base,
        outcome: 'rejected',
        reasons: checked.reasons,
        ...wellFormed(kind, doc, checked.reasons),
      };
    }
    return consumeInline(ctx, call, digest, kind, checked, base, opts);
  }

  const [prediction, decline] = await Promise.all([
    ctx.store.findOpenPrediction(call.session, digest),
    ctx.store.findOpenDecline(call.session, digest),
  ]);
  const ticket = newest(prediction, decline);
  if (!ticket) {
    const used = await ctx.store.findLatestPrediction(call.session, digest);
    if (used?.consumed_at !== undefined) {
      return {
        ...base,
        outcome: 'rejected',
        reasons: [
          reason(
            'prediction_already_used',
            'the prediction filed for this call was already used; each prediction covers one dispatch — observe again and file a new one',
          ),
        ],
      };
    }
    // A ticket filed for another call of this session is named, with this call beside it.
    const elsewhere = elsewhereText(call, await ticketsElsewhere(ctx.store, call.session, digest));
    return {
      ...base,
      outcome: 'rejected',
      reasons: [
        reason(
          'prediction_missing',
          `this irreversible call carries neither a prediction nor a decline.${elsewhere}`,
          '/envelope',
        ),
      ],
    };
  }
  const { kind } = ticket;
  const path = `/${kind}`;
  const checked =
    kind === 'prediction'
      ? await checkPrediction(ticket.record.doc, path, tctx)
      : await checkDecline(ticket.record.doc, path, tctx);
  if (!checked.ok) {
    const { doc_digest } = ticket.record;
    if (kind === 'prediction' && (await alreadyUsed(ctx, call, digest, checked.reasons, doc_digest)))
      return lostRace({ ...base, outcome: 'rejected', reasons: [] });
    return {
      ...base,
      outcome: 'rejected',
      reasons: checked.reasons,
      ...wellFormed(kind, ticket.record.doc, checked.reasons),
    };
  }
  const decision = accepted(kind, ticket.record.id, checked, base);
  return opts.dryRun ? decision : { ...decision, consume: { kind, id: ticket.record.id } };
}

function consumeInline(
  ctx: GateContext,
  call: Call,
  digest: string,
  kind: 'prediction' | 'decline',
  checked: Extract<TicketCheck<unknown>, { ok: true }>,
  base: { requirements: Requirements },
  opts: CheckOptions,
): Decision {
  const now = ctx.clock.now();
  const record: TicketRecord<never> = {
    id: ctx.newId(),
    session: call.session,
    call_digest: digest,
    doc_digest: digestOf(checked.doc),
    doc: checked.doc as never,
    created_at: now,
    ...(call.agent !== undefined ? { agent: call.agent } : {}),
  };
  const decision = accepted(kind, record.id, checked, base);
  return opts.dryRun ? decision : { ...decision, consume: { kind, insert: record } };
}

/**
 * Whether a prediction refused for evidence that predates the last dispatch is that very document,
 * already used (a replay, or a racer that lost): then "already used" is the accurate reason.
 */
async function alreadyUsed(
  ctx: GateContext,
  call: Call,
  digest: string,
  reasons: readonly Reason[],
  doc: string | undefined,
): Promise<boolean> {
  if (doc === undefined || !reasons.some((r) => r.code === 'evidence_stale')) return false;
  const latest = await ctx.store.findLatestPrediction(call.session, digest);
  return latest?.consumed_at !== undefined && latest.doc_digest === doc;
}

function docDigest(doc: unknown): string | undefined {
  try {
    return digestOf(doc);
  } catch {
    return undefined;
  }
}

/** The verdict when the store says another dispatch consumed the ticket first. */
export function lostRace(decision: Decision): Decision {
  const kind = decision.consume?.kind ?? 'prediction';
  return {
    requirements: decision.requirements,
    outcome: 'rejected',
    reasons: [
      reason(
        'prediction_already_used',
        `this ${kind} was already used for this call (each is single-use, and another dispatch took it) — read again and make a new one`,
      ),
    ],
  };
}

function accepted(
  kind: 'prediction' | 'decline',
  id: string,
  checked: Extract<TicketCheck<unknown>, { ok: true }>,
  base: { requirements: Requirements },
): Decision {
  if (kind === 'prediction')
    return {
      ...base,
      outcome: 'dispatch',
      reasons: [],
      predictionId: id,
      prediction: checked.doc,
      evidence: checked.verified,
    };
  return {
    ...base,
    outcome: 'declined',
    reasons: [],
    declineId: id,
    decline: checked.doc,
    evidence: checked.verified,
  };
}

/** The document for the audit row, when it was at least well-formed (else the reasons describe it). */
function wellFormed(
  kind: 'prediction' | 'decline',
  doc: unknown,
  reasons: Reason[],
): { prediction?: unknown; decline?: unknown } {
  return reasons.some((r) => r.code === 'schema_invalid') ? {} : { [kind]: doc };
}

function newest(p: TicketRecord<unknown> | undefined, d: TicketRecord<unknown> | undefined) {
  if (p && (!d || p.created_at >= d.created_at)) return { kind: 'prediction' as const, record: p };
  if (d) return { kind: 'decline' as const, record: d };
  return undefined;
}

/** What checking a prediction or decline for this call needs: the ledger, the clock, the rule's demands. */
export function ticketContext(
  ctx: GateContext,
  call: Call,
  digest: string,
  requirements: Requirements,
  now: number,
): TicketContext {
  return {
    store: ctx.store,
    session: call.session,
    now,
    maxAgeS: requirements.maxAgeS,
    requireAttested: requirements.requireAttested,
    digest,
    requirements,
    subjectIsSafe: (claim: Claim) => subjectIsSafe(ctx, claim),
    isRead: (source: Source) => sourceIsRead(ctx, source),
    relevance: requirements.relevance,
    ...(ctx.placeOf !== undefined && requirements.cwd !== undefined
      ? { place: { here: ctx.placeOf(requirements.cwd), of: ctx.placeOf } }
      : {}),
    callTexts: callTexts(call),
    ...(call.directive !== undefined ? { directive: call.directive } : {}),
  };
}

/** The decoded values a call carries: a shell call's command line and its words, or a tool's argument values. */
function callTexts(call: Call): string[] {
  if (call.tool !== SHELL_TOOL) return textLeaves(call.args);
  const command = String(call.args.command ?? '');
  return [command, ...parseShell(command).segments.flatMap((s) => [s.argv0, ...s.args])];
}

/** Whether the policy (or the tool's own hints) classifies a source as a read: its result is then evidence. */
function sourceIsRead(ctx: GateContext, source: Source): boolean {
  if (typeof source === 'string')
    return classify(ctx.policy, { tool: 'shell', args: { command: source } }).class === 'read-only';
  const call = { tool: source.tool, args: source.args ?? {} };
  return classify(ctx.policy, call, ctx.toolHints(source.tool)).class === 'read-only';
}

/** A claim's subject must not itself change state: it has to be something one can re-read. */
export function subjectIsSafe(ctx: GateContext, claim: Claim): boolean {
  const subject = claim.subject;
  const call =
    typeof subject === 'string'
      ? { tool: 'shell', args: { command: subject } }
      : { tool: subject.tool, args: subject.args ?? {} };
  const hints = typeof subject === 'string' ? undefined : ctx.toolHints(subject.tool);
  return !isGated(classify(ctx.policy, call, hints).class);
}
