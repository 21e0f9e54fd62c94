// Filing a prediction or decline ahead of the call (tollgate predict, POST /v1/predictions): checked
// now, so the agent hears about problems at once, and checked again when the call arrives.
import type { Call, Reason } from '@tollgate/contracts';
import { parseCall } from './call.js';
import { digestOf } from './canonical.js';
import { type Classification, isGated, type ToolHints } from './classify.js';
import type { GateContext } from './context.js';
import { ticketContext } from './decide.js';
import { directiveInForce, HOST_DIRECTIVE_KINDS } from './directives.js';
import { admitTicket } from './limits.js';
import { reason } from './reasons.js';
import { requirementsFor } from './requirements.js';
import { checkDecline, checkPrediction } from './tickets.js';

export type TicketRecordResult =
  | {
      ok: true;
      id?: string;
      call_digest: string;
      gated: boolean;
      class: Classification['class'];
      rules: string[];
    }
  | { ok: false; reasons: Reason[] };

type ClassifyFn = (call: Call, hints?: ToolHints) => Classification | Promise<Classification>;

export async function recordTicket(
  ctx: GateContext,
  kind: 'prediction' | 'decline',
  input: unknown,
  doc: unknown,
  classify: ClassifyFn,
  /** Where the call will run (the gate's default directory): a read's relative paths resolve there. */
  cwd?: string,
): Promise<TicketRecordResult> {
  const parsed = parseCall(input);
  if (!parsed.ok) return parsed;
  const { call, digest } = parsed;
  const classification = await classify(call);
  const summary = { call_digest: digest, class: classification.class, rules: classification.rules };
  if (!isGated(classification.class)) return { ok: true, gated: false, ...summary };
  const now = ctx.clock.now();
  // The same reads count as when the call arrives (decide.ts), from where it will run.
  const requirements = requirementsFor(
    classification,
    call,
    ctx.defaultMaxAgeS,
    cwd !== undefined ? { cwd } : {},
  );
  // Filed from a shell (tollgate predict) the call carries no directive: the one a host recorded for
  // the session is in force, so a quote found only in what the agent was told is refused now.
  if (call.directive === undefined) {
    const told = await directiveInForce(ctx.store, call.session, HOST_DIRECTIVE_KINDS);
    if (told !== undefined) call.directive = told;
  }
  const tctx = ticketContext(ctx, call, digest, requirements, now);
  const checked =
    kind === 'prediction'
      ? await checkPrediction(doc, `/${kind}`, tctx)
      : await checkDecline(doc, `/${kind}`, tctx);
  if (!checked.ok) return checked;
  const docDigest = digestOf(checked.doc);
  try {
    await admitTicket(ctx.store, call.session, ctx.limits, ctx.onLimit);
  } catch (error) {
    // At the cap, filing a document that is already filed and open stays idempotent.
    const open =
      kind === 'prediction'
        ? await ctx.store.findOpenPrediction(call.session, digest)
        : await ctx.store.findOpenDecline(call.session, digest);
    if (open?.doc_digest === docDigest) return { ok: true, id: open.id, gated: true, ...summary };
    throw error;
  }
  const record = {
    id: ctx.newId(),
    session: call.session,
    call_digest: digest,
    doc_digest: docDigest,
    created_at: now,
    ...(call.agent !== undefined ? { agent: call.agent } : {}),
  };
  const fresh =
    kind === 'prediction'
      ? await ctx.store.insertPrediction({ ...record, doc: checked.doc as never })
      : await ctx.store.insertDecline({ ...record, doc: checked.doc as never });
  if (fresh) return { ok: true, id: record.id, gated: true, ...summary };
  // Filing the same document again is idempotent while it is open, and refused once it was used.
  const open =
    kind === 'prediction'
      ? await ctx.store.findOpenPrediction(call.session, digest)
      : await ctx.store.findOpenDecline(call.session, digest);
  if (open?.doc_digest === record.doc_digest) return { ok: true, id: open.id, gated: true, ...summary };
  return {
    ok: false,
    reasons: [
      reason(
        'prediction_already_used',
        `this exact ${kind} was already used for this call in this session; each is single-use — read again and file a new one`,
        `/${kind}`,
      ),
    ],
  };
}
