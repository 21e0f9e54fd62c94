// createGate: the one object every adapter talks to. check() decides; recordObservation,
// recordPrediction, recordDecline and recordOutcome feed the ledger and the audit; guard() wraps a
// tool dispatcher so a TypeScript agent gets the whole loop in-process.
import { posix } from 'node:path';
import type { AuditRow, Call, Observation, Source, Verdict } from '@tollgate/contracts';
import { type FileView, findTopLevel, type ShellFacts } from '@tollgate/shell';
import { monotonicFactory } from 'ulid';
import { auditDraftFor, boundedCall } from './audit-draft.js';
import { AuditWriter } from './audit-writer.js';
import { parseCall } from './call.js';
import {
  type Classification,
  classify,
  classifyNormalised,
  isGated,
  type NormalisedCall,
  type ToolHints,
} from './classify.js';
import { type Decision, decide, lostRace, ruleIdsOf } from './decide.js';
import { TollgateFault } from './faults.js';
import { type Guarded, type GuardOptions, guardWith } from './guard.js';
import { admitObservation, type OnLimit, type SessionLimits, sessionLimits } from './limits.js';
import { type ObservationInput, observationFrom } from './observations.js';
import { type OutcomeResult, recordOutcomeFor } from './outcome.js';
import type { Policy } from './policy/types.js';
import { type Clock, type OverrideRecord, type ReviewRecord, type Store, systemClock } from './ports.js';
import { preconditionRails } from './preconditions-rails.js';
import { probeSubjects } from './probes.js';
import { buildRails, type Channel } from './rails.js';
import { ruleHistories } from './rails-history.js';
import { pooledRandom } from './random-pool.js';
import { reason } from './reasons.js';
import { recordTicket, type TicketRecordResult } from './record-ticket.js';
import { requirementsFor } from './requirements.js';
import { withSessionCode } from './session-code.js';
import {
  createdKeys,
  detachedWrites,
  fileEventKeys,
  pendingPaths,
  readPaths,
  sessionFileView,
  withSessionScripts,
  withUnversionedLosses,
  writtenPaths,
} from './session-files.js';
import { type Settlement, settleDispatch } from './settle.js';
import type { WriteScope } from './writes.js';
import type { ProjectPaths } from './zones.js';

/** The longest an override may last: one year. */
export const MAX_OVERRIDE_TTL_S = 31_536_000;

export type Mode = 'enforce' | 'observe';

export interface GateOptions {
  policy: Policy;
  store: Store;
  mode?: Mode;
  clock?: Clock;
  /** Consecutive rejections of one call before it escalates (default 3). */
  denyCeiling?: number;
  escalation?: 'ask_human' | 'hard_deny';
  /** What an internal failure does to a call no gating rule matched (default open). */
  unmatched?: 'open' | 'closed';
  defaultMaxAgeS?: number;
  excerptBytes?: number;
  /** How rails tell the agent to submit (default library). */
  channel?: Channel;
  toolHints?: (tool: string) => ToolHints | undefined;
  /**
   * Where calls run: the project (root, the gate's own files) and access to its files, so globs,
   * `cd`, symlinks and write targets resolve against the real file system and writes are judged by
   * zone. Without it classification is textual and relative paths count as inside the project.
   */
  where?: GateWhere;
  onDecision?: (verdict: Verdict, elapsedMs: number) => void;
  onAuditError?: (error: unknown, lostRows: number) => void;
  /** Session caps (limits.ts); each one unset takes its default. */
  limits?: Partial<SessionLimits>;
  /** Told each time a limit refuses a request (metrics). */
  onLimit?: OnLimit;
  /**
   * Told once for each review request the gate files (review.ts), after it is stored: how adapters
   * announce it (webhooks, review-notify.ts). Its failure is swallowed: the call stays refused.
   */
  onReviewFiled?: (record: ReviewRecord) => Promise<void> | void;
}

export interface GateWhere {
  project: ProjectPaths;
  files?: FileView;
  /** The PATH programs are looked up on. */
  path?: string;
  /** The default working directory of calls (else the project root). */
  cwd?: string;
  /** The environment commands inherit, as far as resolution reads it (TMPDIR); absent: unknown. */
  env?: Readonly<Record<string, string | undefined>>;
}

export interface CheckOptions {
  /** The working directory this call runs in (a hook's cwd); else the gate's default. */
  cwd?: string;
  /** `{prediction}` or `{decline}` attached to this very call. */
  envelope?: unknown;
  /**
   * The host runs the call detached and reports back at once (Claude Code's `run_in_background`):
   * every write it makes may land after a later read, as a background job's does (Write.async).
   */
  detached?: boolean;
  /** A dry look: validates but consumes nothing (tollgate check). */
  dryRun?: boolean;
  channel?: Channel;
  hints?: ToolHints;
  /**
   * Shell facts parsed for this decision before the check (see ResolveContext.parsed): an adapter
   * that parsed the command where it runs, through the gate's own file view, passes its memo.
   */
  parsed?: Map<string, ShellFacts>;
}

export interface OverrideInput {
  operator: string;
  reason: string;
  session?: string;
  rule?: string;
  callDigest?: string;
  ttlS: number;
}

export interface Gate {
  readonly policy: Policy;
  readonly mode: Mode;
  check(call: unknown, options?: CheckOptions): Promise<Verdict>;
  classify(call: Pick<Call, 'tool' | 'action' | 'args'>, hints?: ToolHints, cwd?: string): Classification;
  recordObservation(input: ObservationInput): Promise<Observation>;
  recordPrediction(call: unknown, doc: unknown): Promise<TicketRecordResult>;
  recordDecline(call: unknown, doc: unknown): Promise<TicketRecordResult>;
  recordOutcome(auditId: string, outcome: unknown): Promise<OutcomeResult>;
  /**
   * Ends a dispatch: re-reads the probe-able claim subjects through `settlement.observe`, records
   * them as attested observations, and stores the outcome with predicted vs observed.
   */
  settle(auditId: string, session: string, settlement: Settlement): Promise<OutcomeResult>;
  /** Claim subjects of a dispatched decision that the gate may re-read itself. */
  probesFor(auditId: string): Promise<Source[]>;
  override(input: OverrideInput): Promise<OverrideRecord>;
  guard<R>(dispatch: (call: Call) => Promise<R>, options?: GuardOptions): Guarded<R>;
  /** Waits for write-behind audit rows. */
  flush(): Promise<void>;
}

/** A directory's place for evidence: the top of the git work tree holding it, or the directory itself. */
function repositoryTop(files: FileView): (dir: string) => string {
  return (dir) => findTopLevel(files, dir) ?? posix.normalize(dir);
}

export function createGate(options: GateOptions): Gate {
  const clock = options.clock ?? systemClock;
  const mode = options.mode ?? 'enforce';
  const store = options.store;
  const ids = monotonicFactory(pooledRandom());
  const newId = () => ids(clock.now());
  const writer = new AuditWriter(store, options.onAuditError ?? (() => {}));
  const ctx = {
    policy: options.policy,
    store,
    clock,
    mode,
    newId,
    denyCeiling: options.denyCeiling ?? 3,
    escalation: options.escalation ?? 'ask_human',
    defaultMaxAgeS: options.defaultMaxAgeS ?? 900,
    excerptBytes: options.excerptBytes ?? 65536,
    toolHints: options.toolHints ?? (() => undefined),
    flushAudit: () => writer.flush(),
    ...(options.where?.files !== undefined ? { placeOf: repositoryTop(options.where.files) } : {}),
    limits: sessionLimits(options.limits),
    onLimit: quietly(options.onLimit),
    ...(options.onReviewFiled !== undefined ? { onReviewFiled: options.onReviewFiled } : {}),
  } as const;
  const describe = (id: string) => options.policy.byId(id)?.rule.description;

  const where = options.where;
  const scopeAt = (cwd: string | undefined, parsed?: Map<string, ShellFacts>): WriteScope | undefined =>
    where && {
      project: where.project,
      context: {
        cwd: cwd ?? where.cwd ?? where.project.root,
        ...(where.project.home !== undefined ? { home: where.project.home } : {}),
        ...(where.path !== undefined ? { path: where.path } : {}),
        ...(where.files !== undefined ? { files: where.files } : {}),
        ...(where.env !== undefined ? { env: where.env } : {}),
        ...(parsed !== undefined ? { parsed } : {}),
      },
    };
  const classifyCall = (
    call: Pick<Call, 'tool' | 'action' | 'args'>,
    hints?: ToolHints,
    cwd?: string,
    parsed?: Map<string, ShellFacts>,
  ) => {
    where?.files?.begin?.(); // file-system bounds count per classification
    return classify(options.policy, call, hints ?? ctx.toolHints(call.tool), scopeAt(cwd, parsed));
  };
  const defaultCwd = where ? (where.cwd ?? where.project.root) : undefined;
  /** A ticket is checked against what its call will be: with the person's files it loses marked. */
  const classifyTicketCall = (call: Call, hints?: ToolHints) =>
    withWrittenScripts(call, classifyCall(call, hints), hints, false);

  async function check(input: unknown, opts: CheckOptions = {}): Promise<Verdict> {
    const started = performance.now();
    const verdict = await checkInner(input, opts);
    try {
      options.onDecision?.(verdict, performance.now() - started);
    } catch {
      // An observer's failure never changes the verdict.
    }
    return verdict;
  }

  async function checkInner(input: unknown, opts: CheckOptions): Promise<Verdict> {
    let parsed: ReturnType<typeof parseCall>;
    try {
      parsed = parseCall(input);
    } catch (error) {
      // Input that breaks validation itself (a throwing getter, a proxy) is malformed, not a crash.
      const why = error instanceof Error ? error.message : String(error);
      parsed = {
        ok: false,
        reasons: [
          reason('schema_invalid', `call: cannot be read as JSON data (${why.slice(0, 120)})`, '/call'),
        ],
      };
    }
    if (!parsed.ok) return rejectMalformed(input, parsed.reasons);
    const { call, digest, canonical } = parsed;
    let classification: Classification;
    try {
      classification = classifyCall(call, opts.hints, opts.cwd, opts.parsed);
      classification = await withWrittenScripts(call, classification, opts.hints, true, opts.cwd);
      if (opts.detached) classification = detachedWrites(classification);
    } catch (error) {
      return unavailable(call, digest, undefined, error);
    }
    // A call only precondition rules speak to is decided like a gated one, but passes once they hold.
    if (!isGated(classification.class) && classification.preconditions === undefined) {
      return noteWrites(call, classification, await pass(call, digest, classification, canonical));
    }
    try {
      // The channel rides along so a refusal can say how this channel learns a review's answer.
      const channel = opts.channel ?? options.channel;
      const decision = await decide(ctx, call, digest, classification, {
        ...opts,
        ...(channel !== undefined ? { channel } : {}),
      });
      return noteWrites(call, classification, await finish(call, digest, classification, decision, opts));
    } catch (error) {
      return unavailable(call, digest, classification, error);
    }
  }

  /**
   * A call that runs a script this session wrote and has not read since, or relies on a file it wrote,
   * is unknown-dynamic; one that deletes or replaces a file git cannot give back, which the session
   * did not make, is irreversible (fs.unversioned.lost).
   */
  async function withWrittenScripts(
    call: Call,
    classification: Classification,
    hints: ToolHints | undefined,
    /** false: only the losses (a ticket is filed for the irreversible loss, never for an unread script). */
    scripts = true,
    cwd?: string,
  ): Promise<Classification> {
    const facts = classification.facts;
    if (!facts) return classification;
    const runsWritten =
      scripts &&
      ((facts.scripts ?? []).length > 0 ||
        (facts.relies_on ?? []).length > 0 ||
        (facts.loads_code ?? []).length > 0);
    const loses = facts.segments.some((s) => s.loses_unversioned !== undefined);
    if (!runsWritten && !loses) return classification;
    const normalised: NormalisedCall = {
      tool: call.tool,
      args: call.args,
      ...(call.action !== undefined ? { action: call.action } : {}),
      facts,
      ...(classification.writes ? { writes: classification.writes } : {}),
    };
    const ran = scripts
      ? await withSessionCode(
          store,
          call.session,
          await withSessionScripts(store, call.session, normalised, sessionFileView(where?.files)),
          scopeAt(cwd),
        )
      : normalised;
    const marked = await withUnversionedLosses(store, call.session, ran);
    if (marked === normalised) return classification;
    return classifyNormalised(options.policy, call, marked, hints ?? ctx.toolHints(call.tool));
  }

  /** The files a call that goes ahead writes are the session's writes (see session-files.ts). */
  async function noteWrites(call: Call, classification: Classification, verdict: Verdict): Promise<Verdict> {
    if (verdict.outcome !== 'pass' && verdict.outcome !== 'dispatch') return verdict;
    const paths = writtenPaths(classification);
    if (paths.length === 0) return verdict;
    // A write a background job makes may land after a later read: no read clears it.
    const pending = pendingPaths(classification);
    // What is not there yet the call makes: the session's own to remove later (fs.unversioned.lost).
    // Asked afresh, and only of an answer the file view's bounds did not cut short.
    where?.files?.begin?.();
    let created = createdKeys(paths, sessionFileView(where?.files));
    if (where?.files?.exhausted) created = [];
    try {
      await store.recordFileEvents(call.session, 'write', [...fileEventKeys(paths), ...created], clock.now());
      if (pending.length > 0)
        await store.recordFileEvents(call.session, 'pending', fileEventKeys(pending), clock.now());
    } catch (error) {
      // Unrecorded, a script written now could later run unjudged: the call does not go ahead.
      return unavailable(call, verdict.call_digest, undefined, error);
    }
    return verdict;
  }

  async function pass(
    call: Call,
    digest: string,
    classification: Classification,
    callJson: string,
  ): Promise<Verdict> {
    const id = newId();
    const verdict: Verdict = {
      outcome: 'pass',
      mode,
      would_reject: false,
      class: classification.class,
      rules: classification.rules,
      call_digest: digest,
      audit_id: id,
      reasons: [],
    };
    const at = clock.now();
    const draft = () => auditDraftFor({ id, at, call: { ...call }, verdict, callJson });
    if (options.unmatched !== 'closed') {
      writer.enqueue(draft);
      return verdict;
    }
    try {
      await store.appendAudit([draft()]);
      return verdict;
    } catch (error) {
      return unavailable(call, digest, classification, error);
    }
  }

  async function finish(
    call: Call,
    digest: string,
    classification: Classification,
    decision: Decision,
    opts: CheckOptions,
  ): Promise<Verdict> {
    const id = newId();
    const rejected = decision.outcome === 'rejected';
    const observeOnly = rejected && mode === 'observe';
    const verdict: Verdict = {
      outcome: observeOnly ? 'pass' : decision.outcome,
      mode,
      would_reject: observeOnly,
      class: classification.class,
      rules: ruleIdsOf(classification),
      call_digest: digest,
      audit_id: id,
      reasons: decision.reasons,
      ...(classification.segment !== undefined ? { segment: classification.segment } : {}),
      ...(decision.predictionId !== undefined ? { prediction_id: decision.predictionId } : {}),
      ...(decision.declineId !== undefined ? { decline_id: decision.declineId } : {}),
      ...(decision.escalation !== undefined ? { escalation: decision.escalation } : {}),
      ...(decision.overrideId !== undefined ? { override: decision.overrideId } : {}),
      ...(decision.reviewId !== undefined ? { review_id: decision.reviewId } : {}),
    };
    if (rejected) {
      const channel = opts.channel ?? options.channel ?? 'library';
      verdict.rails = buildRails({
        call,
        classification,
        requirements: decision.requirements,
        problems: decision.reasons,
        channel,
        describe,
        history: await ruleHistories(store, classification.rules, clock.now(), call.agent),
        ...(decision.reviewId !== undefined ? { review: decision.reviewId } : {}),
      });
      if (decision.unmet !== undefined)
        verdict.rails = preconditionRails(verdict.rails, {
          unmet: decision.unmet,
          gated: isGated(classification.class),
          channel,
          describe,
        });
    }
    const draft = auditDraftFor({
      id,
      at: clock.now(),
      call,
      verdict,
      decision,
      dryRun: opts.dryRun === true,
    });
    if (decision.consume === undefined) {
      await store.appendAudit([draft]);
      return verdict;
    }
    // Using up the ticket and writing the row that says so happen together, or not at all.
    if (await store.commitDecision(decision.consume, clock.now(), draft)) return verdict;
    if (decision.overrideId !== undefined) {
      // Another dispatch used the filed prediction first; the override still lets this one through.
      const { consume: _c, predictionId: _p, prediction: _d, evidence: _e, ...override } = decision;
      return finish(call, digest, classification, override, opts);
    }
    if (mode === 'enforce') await store.bumpRejections(call.session, digest);
    return finish(call, digest, classification, lostRace(decision), opts);
  }

  async function unavailable(
    call: Call,
    digest: string,
    classification: Classification | undefined,
    error: unknown,
  ): Promise<Verdict> {
    const message = error instanceof Error ? error.message : String(error);
    const gated = classification === undefined || isGated(classification.class);
    const verdict: Verdict = {
      outcome: !gated && options.unmatched !== 'closed' ? 'pass' : 'rejected',
      mode,
      would_reject: false,
      class: classification?.class ?? 'unknown-dynamic',
      rules: classification?.rules ?? [],
      call_digest: digest,
      reasons: [
        reason(
          'gate_unavailable',
          `the gate could not decide this call (${message.slice(0, 200)}); it is denied until the gate is healthy — retry later or ask an operator`,
        ),
      ],
    };
    if (mode === 'observe' && verdict.outcome === 'rejected') {
      verdict.outcome = 'pass';
      verdict.would_reject = true;
    }
    try {
      const id = newId();
      await store.appendAudit([auditDraftFor({ id, at: clock.now(), call, verdict })]);
      verdict.audit_id = id;
    } catch {
      // The store is what failed; the verdict still stands without an audit id.
    }
    return verdict;
  }

  async function rejectMalformed(input: unknown, reasons: Verdict['reasons']): Promise<Verdict> {
    const verdict: Verdict = {
      outcome: mode === 'observe' ? 'pass' : 'rejected',
      mode,
      would_reject: mode === 'observe',
      class: 'unknown-dynamic',
      rules: [],
      call_digest: '0'.repeat(64),
      reasons,
    };
    const session = (input as { session?: unknown } | null)?.session;
    try {
      const id = newId();
      const draft = auditDraftFor({
        id,
        at: clock.now(),
        call: boundedCall(
          input,
          typeof session === 'string' && session !== '' ? session.slice(0, 256) : 'unknown',
        ),
        verdict,
      });
      await store.appendAudit([draft]);
      verdict.audit_id = id;
    } catch {
      // A malformed call whose row cannot be written is still refused.
    }
    return verdict;
  }

  const gate: Gate = {
    policy: options.policy,
    mode,
    check,
    classify: classifyCall,
    async recordObservation(input) {
      const observation = observationFrom(input, newId(), clock.now(), ctx.excerptBytes);
      await admitObservation(store, observation, ctx.limits, ctx.onLimit);
      // A read the gate saw shows the agent what a file holds: a script it wrote may run again.
      if (input.attested) {
        const paths = readPaths(observation.source, scopeAt(input.cwd));
        if (paths.length > 0)
          await store.recordFileEvents(input.session, 'read', fileEventKeys(paths), clock.now());
      }
      return observation;
    },
    recordPrediction: (call, doc) =>
      recordTicket(ctx, 'prediction', call, doc, classifyTicketCall, defaultCwd),
    recordDecline: (call, doc) => recordTicket(ctx, 'decline', call, doc, classifyTicketCall, defaultCwd),
    recordOutcome: (auditId, outcome) => recordOutcomeFor(ctx, auditId, outcome, newId()),
    settle: (auditId, session, settlement) => settleDispatch(gate, session, auditId, settlement),
    async probesFor(auditId) {
      const row = await store.getAudit(auditId);
      return row ? probeSubjects(row, classifyCall, ctx.defaultMaxAgeS) : [];
    },
    async override(input) {
      if (!Number.isInteger(input.ttlS) || input.ttlS < 1 || input.ttlS > MAX_OVERRIDE_TTL_S) {
        throw new TollgateFault(
          'input_invalid',
          `an override's ttl must be a whole number of seconds from 1 to ${MAX_OVERRIDE_TTL_S} (one year)`,
          { ttl_s: input.ttlS },
        );
      }
      if (input.session === undefined && input.rule === undefined && input.callDigest === undefined) {
        throw new TollgateFault(
          'input_invalid',
          'an override needs a scope: a session, a rule or a call digest (an unscoped one would open every gate)',
        );
      }
      const now = clock.now();
      const record: OverrideRecord = {
        id: newId(),
        operator: input.operator,
        reason: input.reason,
        created_at: now,
        expires_at: now + input.ttlS * 1000,
        ...(input.session !== undefined ? { session: input.session } : {}),
        ...(input.rule !== undefined ? { rule: input.rule } : {}),
        ...(input.callDigest !== undefined ? { call_digest: input.callDigest } : {}),
      };
      // Everything that can throw happens before any write.
      const row: Omit<AuditRow, 'seq' | 'prev_hash' | 'hash'> = {
        id: newId(),
        at: new Date(now).toISOString(),
        kind: 'override',
        session: input.session ?? '*',
        override: {
          id: record.id,
          reason: record.reason,
          operator: record.operator,
          expires_at: new Date(record.expires_at).toISOString(),
          ...(record.session !== undefined ? { session: record.session } : {}),
          ...(record.rule !== undefined ? { rule: record.rule } : {}),
          ...(record.call_digest !== undefined ? { call_digest: record.call_digest } : {}),
        },
      };
      // The audit row first: an override is never in force without the row that says so.
      await store.appendAudit([row]);
      await store.insertOverride(record);
      return record;
    },
    guard: (dispatch, guardOptions) => guardWith(gate, dispatch, guardOptions),
    flush: () => writer.flush(),
  };
  return gate;
}

/** An observer's failure never changes what the gate answers. */
function quietly(onLimit: OnLimit | undefined): OnLimit {
  return (limit) => {
    try {
      onLimit?.(limit);
    } catch {
      // as above
    }
  };
}

export type { Classification };
export { requirementsFor };
