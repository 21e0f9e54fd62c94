// Rails: what a rejected agent reads. Each problem in plain words with its path, the literal reads
// to make, and a minimal prediction and decline for this very call, phrased for the channel the
// agent speaks through. Every call-derived string is sanitised; only '\n' separates lines.
import type { Call, Decline, Prediction, Rails, Reason, Source } from '@tollgate/contracts';
import type { Classification } from './classify.js';
import type { RailsHistory } from './rails-history.js';
import { reviewLines, reviewSummary } from './rails-review.js';
import type { Requirements } from './requirements.js';
import { quoted, sanitiseJson, sanitiseText, shellQuoted } from './sanitise.js';

export type Channel = 'cli' | 'claude-code' | 'mcp' | 'http' | 'library';

export interface RailsInput {
  call: Pick<Call, 'tool' | 'action' | 'args'>;
  classification: Classification;
  requirements: Requirements;
  problems: Reason[];
  channel: Channel;
  describe: (ruleId: string) => string | undefined;
  /** The refusing rules' recent record here (rails-history.ts); shown when not empty. */
  history?: RailsHistory;
  /** The review request this call waits on (review.ts): a person decides, not a prediction. */
  review?: string;
}

const QUOTE_PLACEHOLDER = '<text you saw in that output>';

export function buildRails(input: RailsInput): Rails {
  const { requirements, problems } = input;
  const reads = requirements.reads;
  const firstRead = reads[0] ?? '<a read-only command that shows the current state>';
  const { subject: probe, unverifiable } = claimSubject(input.channel, requirements, firstRead);
  const example_prediction: Prediction = {
    claims: [{ subject: probe, op: 'contains', value: '<what its output will show after the call>' }],
    evidence: [{ source: firstRead, quote: QUOTE_PLACEHOLDER }],
    rationale: '<why the call will leave that state>',
  };
  const example_decline: Decline = {
    irreducible: '<what you cannot know before acting>',
    would_change_my_mind: ['<a read result that would let you predict>'],
    attempted_observations: [{ source: firstRead }],
  };
  const summary = summaryLine(input);
  const rails = {
    summary,
    problems: problems.map((p) => ({ ...p, message: sanitiseText(p.message, 400) })),
    reads,
    example_prediction: sanitiseJson(example_prediction, 400) as Prediction,
    example_decline: sanitiseJson(example_decline, 400) as Decline,
    ...(input.history !== undefined && input.history.length > 0
      ? { history: sanitiseJson(input.history, 400) as RailsHistory }
      : {}),
  };
  const lines = [
    summary,
    ...(rails.problems.length > 0
      ? [
          'Problems:',
          ...rails.problems.map((p) => `  - [${p.code}] ${p.message}${p.path ? ` (at ${p.path})` : ''}`),
        ]
      : []),
    ...(input.review !== undefined
      ? reviewLines(input.channel, input.review, input.call.tool)
      : evidenceLines(input, rails.example_prediction, rails.example_decline, unverifiable)),
    ...historyLines(rails.history),
    ...(input.review !== undefined
      ? []
      : [
          `Evidence older than ${requirements.maxAgeS} s is refused. What you were told (a prompt, a ticket) is not evidence; only reads are. A decline is a fine answer: it is recorded and nothing runs.`,
        ]),
  ];
  return { ...rails, text: lines.map((l) => sanitiseLine(l)).join('\n') };
}

/** How to satisfy the gate with reads and a prediction (or a decline), for the channel. */
function evidenceLines(
  input: RailsInput,
  prediction: Prediction,
  decline: Decline,
  unverifiable: Source | undefined,
): string[] {
  const { requirements } = input;
  return [
    'Read first (the gate records what you read; only recorded reads count as evidence):',
    ...requirements.reads.map((r) => `  - ${sourceLine(r)}`),
    `Reads that count as evidence for this call: ${requirements.relevance.accepted.join('; ')}. Output that only repeats a command's own words (echo, printf) never counts, and a quote must be something the read found, not text the call or the read carries.`,
    ...requirements.relevance.required.map((r) => `  Required: cite a read of ${r.describe}.`),
    ...howTo(input, prediction, decline),
    ...(SHELL_PROBES_ONLY.has(input.channel) && input.call.tool !== 'shell'
      ? [
          `After the call the gate re-reads only shell read commands named as claim subjects; a claim about a tool call${unverifiable ? ` (such as ${sourceLine(unverifiable)})` : ''} stays "unverifiable".`,
        ]
      : []),
  ];
}

/** Channels whose adapter re-reads claim subjects by running them in a shell, and nothing else. */
const SHELL_PROBES_ONLY: ReadonlySet<Channel> = new Set(['cli', 'claude-code']);
const SHELL_SUBJECT = '<a read-only shell command that shows the state after the call>';

/**
 * The claim subject the example suggests: the rule's probe or first read, unless this channel's
 * adapter cannot re-read it (a tool call through the Claude Code hook or the CLI); then a shell read
 * among them, else a placeholder for one, with the tool read named as what would stay unverifiable.
 */
function claimSubject(
  channel: Channel,
  requirements: Requirements,
  firstRead: Source,
): { subject: Source; unverifiable?: Source } {
  const preferred = requirements.probes[0] ?? firstRead;
  if (!SHELL_PROBES_ONLY.has(channel) || typeof preferred === 'string') return { subject: preferred };
  const shell = [...requirements.probes, ...requirements.reads].find((s) => typeof s === 'string');
  return { subject: shell ?? SHELL_SUBJECT, unverifiable: preferred };
}

function summaryLine(input: RailsInput): string {
  const ids = input.classification.rules;
  const described = ids.map((id) => input.describe(id)).find((d) => d !== undefined);
  const what =
    input.classification.class === 'unknown-dynamic'
      ? 'cannot be resolved statically, so it is treated as irreversible'
      : 'is irreversible';
  const segment = input.classification.segment
    ? ` (the part ${quoted(input.classification.segment, 120)})`
    : '';
  const operatorOnly = input.classification.gating.some((c) => c.rule.operator_only === true);
  const next =
    input.review !== undefined
      ? reviewSummary(input.review)
      : operatorOnly
        ? 'Only an operator can let it through (no prediction will): leave it, decline it, or ask a person.'
        : 'Attach a prediction backed by reads you made, or a decline, and retry.';
  return sanitiseLine(
    `Tollgate (an automated gate you can satisfy) held this call: it ${what}${segment}${described ? ` — ${described}` : ''} [${ids.join(', ')}]. ${next}`,
  );
}

function howTo(input: RailsInput, prediction: Prediction, decline: Decline): string[] {
  const p = JSON.stringify(prediction);
  const d = JSON.stringify(decline);
  const command =
    typeof input.call.args.command === 'string' ? shellQuoted(input.call.args.command, 300) : undefined;
  switch (input.channel) {
    case 'cli':
      return [
        `Then: tollgate observe -- <read>   (for each read above; cite its output)`,
        `Then: tollgate predict --for ${command ?? '<command>'} --file prediction.json   (or: tollgate decline --for ${command ?? '<command>'} --file decline.json)`,
        'Then run the same command again.',
        `Minimal prediction: ${p}`,
        `Minimal decline: ${d}`,
      ];
    case 'claude-code':
      return [
        'Run each read above as its own Bash command; the gate records its output.',
        `Then file a prediction through Bash: tollgate predict --for ${command ?? '<command>'} --json-doc '<prediction JSON>'   (or tollgate decline --for ... --json-doc '<decline JSON>')`,
        'Then retry the exact same command, unchanged.',
        `Minimal prediction: ${p}`,
        `Minimal decline: ${d}`,
      ];
    case 'mcp':
      return [
        `Call the read tools above first. Then call ${quoted(input.call.tool, 80)} again with the same arguments plus a "tollgate" argument: {"prediction": …} or {"decline": …}.`,
        `Minimal prediction: {"prediction": ${p}}`,
        `Minimal decline: {"decline": ${d}}`,
      ];
    case 'http':
      return [
        'Record each read with POST /v1/observations (or make it through the gate), then POST /v1/check again with "envelope": {"prediction": …} or {"decline": …}, or file it first with POST /v1/predictions.',
        `Minimal prediction: ${p}`,
        `Minimal decline: ${d}`,
      ];
    case 'library':
      return [
        'Record each read with gate.recordObservation(...), then call again with an envelope {prediction} or {decline}.',
        `Minimal prediction: ${p}`,
        `Minimal decline: ${d}`,
      ];
  }
}

/** A mistake already made here, shown where it matters: at the call site. */
function historyLines(history: RailsHistory | undefined): string[] {
  if (history === undefined) return [];
  return history.flatMap((h) => [
    `This project's record of ${h.rule}: it fired ${h.fires_at_least === true ? 'at least ' : ''}${h.fires} time${h.fires === 1 ? '' : 's'} in the last 7 days.`,
    ...h.mismatches.map(
      (m) =>
        `  - ${m.at.slice(0, 16)}Z a prediction about ${quoted(sourceLine(m.subject), 120)} said ${m.op} ${quoted(JSON.stringify(m.predicted), 120)}; the gate observed ${m.observed === null ? 'nothing' : quoted(m.observed, 160)}.`,
    ),
  ]);
}

function sourceLine(source: Source): string {
  return typeof source === 'string' ? source : `${source.tool} ${JSON.stringify(source.args ?? {})}`;
}

function sanitiseLine(line: string): string {
  return sanitiseText(line, 4000);
}
