// Evidence verification against the ledger: the cited read must be in this session's ledger, young
// enough, attested when the rule says so, and its recorded output must contain the quote. Directive
// is not evidence: a quote found only in what the agent was told is refused as such.
import type { Directive, Observation, Reason, Source, VerifiedEvidence } from '@tollgate/contracts';
import { parseShell } from '@tollgate/shell';
import { sourceKey, sourceText } from './call.js';
import type { Relevance } from './evidence-relevance.js';
import type { Store } from './ports.js';
import { type QuoteProblem, quoteProblem, textLeaves } from './quote.js';
import { reason } from './reasons.js';
import { quoted } from './sanitise.js';
import { containsFolded } from './text-match.js';

export interface EvidenceContext {
  store: Store;
  session: string;
  now: number;
  maxAgeS: number;
  requireAttested: boolean;
  directive?: Directive;
  /** Evidence observed at or before this time (the last dispatch of this call) is stale. */
  notAfter?: number;
  /** Which reads count for the gated call (absent: any read in the ledger). */
  relevance?: Relevance;
  /** What the gated call and the claims' subjects carry: a quote of theirs proves nothing. */
  carried?: { call: string[]; subjects: string[] };
  /** Whether a source is a read by the policy: only then is what its call returned (a result) evidence. */
  isRead?: (source: Source) => boolean;
  /**
   * Where the gated call runs (`here`: its repository's top, or its directory) and how a read's
   * directory is placed: a shell read made in another place (a scratch clone's `git log`) shows
   * nothing about this one. Absent: reads count wherever they ran.
   */
  place?: { here: string; of: (dir: string) => string };
}

export interface Citation {
  observation?: string;
  source?: Source;
  quote?: string;
}

export interface EvidenceResult {
  verified: VerifiedEvidence[];
  problems: Reason[];
  /** Keys of the rules' required reads that some verified citation satisfies. */
  satisfied: Set<string>;
}

// Sources that name the instruction rather than a read.
const DIRECTIVE_SOURCE =
  /^\s*(directive|instructions?|system(\s+(prompt|message))?|prompt|user(\s+message)?|ticket|task|told)\b/i;

export async function verifyCitations(
  citations: readonly Citation[],
  pathPrefix: string,
  ctx: EvidenceContext,
): Promise<EvidenceResult> {
  const verified: VerifiedEvidence[] = [];
  const problems: Reason[] = [];
  const satisfied = new Set<string>();
  for (const [i, citation] of citations.entries()) {
    const path = `${pathPrefix}/${i}`;
    const outcome = await verifyOne(citation, path, ctx);
    if ('problem' in outcome) problems.push(outcome.problem);
    else {
      verified.push(outcome.verified);
      for (const key of outcome.satisfies) satisfied.add(key);
    }
  }
  return { verified, problems, satisfied };
}

type One = { verified: VerifiedEvidence; satisfies: string[] } | { problem: Reason };

async function verifyOne(citation: Citation, path: string, ctx: EvidenceContext): Promise<One> {
  const { quote } = citation;
  const inDirective =
    quote !== undefined && ctx.directive !== undefined && containsFolded(ctx.directive.text, quote);
  if (citation.source !== undefined && namesDirective(citation.source, ctx.directive)) {
    return {
      problem: reason(
        'directive_is_not_evidence',
        `evidence ${path} cites the directive (${quoted(sourceText(citation.source))}); what you were told is not evidence — read the state yourself`,
        `${path}/source`,
      ),
    };
  }
  const found = await lookUp(citation, ctx);
  if (found.kind === 'mismatch') {
    return {
      problem: reason(
        'evidence_not_observed',
        `observation ${quoted(citation.observation ?? '')} is a read of ${quoted(sourceText(found.observation.source))}, not of ${quoted(sourceText(citation.source ?? ''))}`,
        `${path}/source`,
      ),
    };
  }
  if (found.kind === 'superseded') {
    return {
      problem: reason(
        'evidence_stale',
        `the quote ${quoted(quote ?? '', 80)} was in an earlier read of ${quoted(sourceText(found.observation.source))}, but a newer read of it no longer shows it; the newest read is what counts — read it again and quote that`,
        citation.observation !== undefined ? `${path}/observation` : `${path}/quote`,
      ),
    };
  }
  if (found.kind === 'elsewhere') {
    return {
      problem: reason(
        'evidence_not_accepted',
        `evidence ${path}: the read of ${quoted(sourceText(found.observation.source))} ran in ${quoted(found.observation.cwd ?? '')}, not where this call runs (${quoted(ctx.place?.here ?? '')}); what a read shows about another repository is no evidence here — make the read where the call runs and cite that`,
        citation.observation !== undefined ? `${path}/observation` : `${path}/source`,
      ),
    };
  }
  if (found.kind === 'none') {
    if (inDirective) return { problem: directiveProblem(path) };
    const what =
      citation.observation !== undefined
        ? `observation ${quoted(citation.observation)}`
        : `a read of ${quoted(sourceText(citation.source ?? ''))}`;
    return {
      problem: reason(
        'evidence_not_observed',
        `${what} was never recorded by the gate in this session; make the read through the gate first, then cite it`,
        citation.observation !== undefined ? `${path}/observation` : `${path}/source`,
      ),
    };
  }
  const obs = found.observation;
  // What the agent was told, recorded from its host, is never evidence, whichever way it is cited.
  if (obs.kind === 'directive') return { problem: directiveProblem(path) };
  // What a call returned is recorded for preconditions; only a read's output is evidence of state.
  if (obs.kind === 'result' && ctx.isRead?.(obs.source) !== true) {
    return {
      problem: reason(
        'evidence_not_accepted',
        `evidence ${path}: ${quoted(sourceText(obs.source))} is what a call that changes state returned, not a read of the state; cite a read made after it`,
        citation.observation !== undefined ? `${path}/observation` : `${path}/source`,
      ),
    };
  }
  const acceptance = ctx.relevance?.accept(obs.source) ?? { ok: true as const, satisfies: [] };
  if (!acceptance.ok) {
    const counts = ctx.relevance?.accepted.join('; ') ?? '';
    return {
      problem: reason(
        'evidence_not_accepted',
        `evidence ${path}: ${acceptance.why}. Reads that count for this call: ${counts}`,
        citation.observation !== undefined ? `${path}/observation` : `${path}/source`,
      ),
    };
  }
  // `echo 3f2a9c1` shows 3f2a9c1 whatever the state: a quote the read, the call or a claim itself
  // carries proves nothing, and neither does one too short to tell states apart.
  if (quote !== undefined) {
    const problem = quoteProblem(quote, {
      read: ownTexts(obs.source),
      call: ctx.carried?.call ?? [],
      subjects: ctx.carried?.subjects ?? [],
    });
    if (problem) return { problem: informativeProblem(problem, quote, obs.source, `${path}/quote`) };
  }
  const ageS = (ctx.now - Date.parse(obs.observed_at)) / 1000;
  if (ageS > ctx.maxAgeS) {
    return {
      problem: reason(
        'evidence_stale',
        `the read of ${quoted(sourceText(obs.source))} is ${Math.round(ageS)} s old; this rule accepts evidence up to ${ctx.maxAgeS} s old — read it again`,
        path,
      ),
    };
  }
  if (ctx.notAfter !== undefined && Date.parse(obs.observed_at) <= ctx.notAfter) {
    return {
      problem: reason(
        'evidence_stale',
        `read again: this read of ${quoted(sourceText(obs.source))} predates the last dispatch of this call, and each dispatch needs evidence observed after the previous one`,
        path,
      ),
    };
  }
  if (ctx.requireAttested && !obs.attested) {
    return {
      problem: reason(
        'evidence_not_attested',
        `the read of ${quoted(sourceText(obs.source))} was posted by a client, not seen by the gate; this rule wants a read made through the gate`,
        path,
      ),
    };
  }
  if (quote !== undefined && !containsFolded(obs.excerpt, quote)) {
    if (inDirective) return { problem: directiveProblem(path) };
    const cut =
      obs.output_bytes > Buffer.byteLength(obs.excerpt)
        ? ' (only the first part of a long output is kept: quote from it)'
        : '';
    return {
      problem: reason(
        'quote_not_in_observation',
        `the quote ${quoted(quote, 80)} does not occur in the recorded output of ${quoted(sourceText(obs.source))}${cut}`,
        `${path}/quote`,
      ),
    };
  }
  return {
    verified: { observation: obs.id, source: obs.source, age_s: Math.max(0, Math.round(ageS * 1000) / 1000) },
    satisfies: acceptance.satisfies,
  };
}

/** The decoded values a read carries in itself: its command line and words, or its arguments. */
function ownTexts(source: Source): string[] {
  if (typeof source !== 'string') return textLeaves(source.args ?? {}, [source.tool]);
  return [source, ...parseShell(source).segments.flatMap((s) => [s.argv0, ...s.args])];
}

const NOT_INFORMATIVE: Record<QuoteProblem['kind'], string> = {
  short:
    'is too short (or only punctuation) to tell one state from another; quote a longer, distinctive part of the output',
  read: 'consists of words the read itself carries in its command or arguments, so its output shows them whatever the state; quote what the read found',
  call: 'is text the call you want to make carries itself; quote what the read showed about the state',
  subject: 'is text a claim subject carries itself; quote what the read showed about the state',
};

function informativeProblem(kind: QuoteProblem, quote: string, source: Source, path: string): Reason {
  return reason(
    'quote_not_informative',
    `the quote ${quoted(quote, 80)} from ${quoted(sourceText(source))} ${NOT_INFORMATIVE[kind.kind]}`,
    path,
  );
}

type Found =
  | { kind: 'found'; observation: Observation }
  | { kind: 'none' }
  | { kind: 'mismatch'; observation: Observation }
  /** The cited read held the quote, but a newer read of the same source does not. */
  | { kind: 'superseded'; observation: Observation; newer: Observation }
  /** Reads of the source were made, but in another place than where the call runs. */
  | { kind: 'elsewhere'; observation: Observation };

/** Whether a read was made where the call runs (a tool's read, or one with no directory, is anywhere). */
function madeHere(obs: Observation, ctx: EvidenceContext): boolean {
  if (!ctx.place || obs.cwd === undefined || typeof obs.source !== 'string') return true;
  return ctx.place.of(obs.cwd) === ctx.place.here;
}

// Evidence is judged against the newest read of its source in the session: a read that showed the
// quote once proves nothing once a later read of the same thing no longer shows it.
async function lookUp(citation: Citation, ctx: EvidenceContext): Promise<Found> {
  const quote = citation.quote;
  if (citation.observation !== undefined) {
    const obs = await ctx.store.getObservation(ctx.session, citation.observation);
    if (!obs) return { kind: 'none' };
    if (citation.source !== undefined && sourceKey(citation.source) !== obs.source_key)
      return { kind: 'mismatch', observation: obs };
    if (!madeHere(obs, ctx)) return { kind: 'elsewhere', observation: obs };
    if (quote === undefined) return { kind: 'found', observation: obs };
    const [newest] = (await ctx.store.findObservationsBySource(ctx.session, obs.source_key, 8)).filter((o) =>
      madeHere(o, ctx),
    );
    if (newest && newest.id !== obs.id && !containsFolded(newest.excerpt, quote))
      return { kind: 'superseded', observation: obs, newer: newest };
    return { kind: 'found', observation: obs };
  }
  if (citation.source === undefined) return { kind: 'none' };
  const all = await ctx.store.findObservationsBySource(ctx.session, sourceKey(citation.source), 8);
  const candidates = all.filter((o) => madeHere(o, ctx));
  const newest = candidates[0];
  if (!newest) return all[0] ? { kind: 'elsewhere', observation: all[0] } : { kind: 'none' };
  if (quote === undefined || containsFolded(newest.excerpt, quote))
    return { kind: 'found', observation: newest };
  const older = candidates.find((o) => containsFolded(o.excerpt, quote));
  // No read holds the quote: judge the newest one (the quote is not in its output).
  return older
    ? { kind: 'superseded', observation: older, newer: newest }
    : { kind: 'found', observation: newest };
}

function namesDirective(source: Source, directive: Directive | undefined): boolean {
  if (typeof source !== 'string') return DIRECTIVE_SOURCE.test(source.tool);
  if (DIRECTIVE_SOURCE.test(source)) return true;
  return directive?.source !== undefined && source.trim() === directive.source.trim();
}

function directiveProblem(path: string): Reason {
  return reason(
    'directive_is_not_evidence',
    `evidence ${path} quotes the directive (what you were told), and no read the gate saw contains it; read the state yourself and cite that read`,
    `${path}/quote`,
  );
}
