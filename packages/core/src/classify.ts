// classify(call): which rules match, and so which class the call is. Shell calls are parsed into
// segments first; a rule's segment predicate matches when any one segment satisfies it.
import type { Call } from '@tollgate/contracts';
import {
  parseShell,
  type ShellFacts,
  type ShellSegment,
  type SqlFacts,
  sqlFactsOfArgs,
} from '@tollgate/shell';
import { type PlanEntry, planOf } from './policy/plan.js';
import type { CompiledRule, Policy } from './policy/types.js';
import { type Write, type WriteScope, writesOfShell, writesOfTool } from './writes.js';
import { projectInTemp, within } from './zones.js';

export type CallClass = 'irreversible' | 'unknown-dynamic' | 'read-only' | 'unmatched';

/** Untrusted hints about a tool, such as MCP annotations; rules always win over them. */
export interface ToolHints {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
}

export const ANNOTATION_RULE_ID = 'mcp.annotation.destructive';
export const ANNOTATION_READ_RULE_ID = 'mcp.annotation.read-only';

export interface Classification {
  class: CallClass;
  /** Ids of the rules that decided the class (gating rules, or the read rules for read-only). */
  rules: string[];
  /** The gating rules themselves (empty for pass classes). */
  gating: CompiledRule[];
  /** For shell calls: the simple command that a gating rule matched, as text and as parsed. */
  segment?: string;
  segmentFacts?: unknown;
  facts?: ShellFacts;
  /** The files the call writes, each with its zone (see zones.ts). */
  writes?: Write[];
  /** A gating rule that wants a person to answer this call first (review.ts), with its time-out. */
  review?: { rule: string; timeout_s?: number };
  /**
   * Rules whose `requires` this call must meet (see preconditions.ts): the matched `class:
   * precondition` rules and the gating rules that carry `requires`. Absent when none.
   */
  preconditions?: CompiledRule[];
}

export type NormalisedCall = Pick<Call, 'tool' | 'action' | 'args'> & {
  facts?: ShellFacts;
  writes?: Write[];
  /** For non-shell calls carrying SQL text (`sql`, `query`, `statement`): what the statements do. */
  sql?: SqlFacts;
};

export const SHELL_TOOL = 'shell';

/**
 * The call as rules see it: a shell command parsed into facts (resolved against the file system
 * when a scope says where it runs), and the files the call writes with their zones.
 */
export function normaliseCall(
  call: Pick<Call, 'tool' | 'action' | 'args'>,
  scope?: WriteScope,
): NormalisedCall {
  if (call.tool !== SHELL_TOOL) {
    const writes = writesOfTool(call.tool, call.args, scope);
    // SQL text in `sql` / `query` / `statement` arguments, analysed by the shell package's SQL lexer.
    const sql = sqlFactsOfArgs(call.args);
    if (writes === undefined && sql === undefined) return call;
    return { ...call, ...(writes === undefined ? {} : { writes }), ...(sql === undefined ? {} : { sql }) };
  }
  const command = typeof call.args.command === 'string' ? call.args.command : '';
  const facts = parseShell(command, scope ? { context: scope.context } : {});
  if (scope && projectInTemp(scope.project)) markProjectWrites(facts, scope.project.root);
  const writes = writesOfShell(facts, scope);
  return writes.length > 0 ? { ...call, facts, writes } : { ...call, facts };
}

/**
 * In a project kept under a temp directory, a segment that writes inside it writes beyond scratch
 * (ShellSegment.writes_beyond_scratch), whatever the parse could tell of its work tree: `rm -rf
 * /tmp/sandbox/src` is the project's src, not scratch, even where no git repository says so.
 */
function markProjectWrites(facts: ShellFacts, root: string): void {
  for (const segment of facts.segments)
    if (segment.writes?.some((p) => within(p, root))) segment.writes_beyond_scratch = true;
}

export function classify(
  policy: Policy,
  call: Pick<Call, 'tool' | 'action' | 'args'>,
  hints?: ToolHints,
  scope?: WriteScope,
): Classification {
  if (policy.rulesFor(call.tool).length === 0 && call.tool !== SHELL_TOOL) return fromHints(hints);
  return classifyNormalised(policy, call, normaliseCall(call, scope), hints);
}

/** Matching the rules against a call already normalised (core may add facts the store knows, see gate.ts). */
export function classifyNormalised(
  policy: Policy,
  call: Pick<Call, 'tool' | 'action' | 'args'>,
  normalised: NormalisedCall,
  hints?: ToolHints,
): Classification {
  const candidates = policy.rulesFor(call.tool);
  if (candidates.length === 0 && call.tool !== SHELL_TOOL) return fromHints(hints);
  const segments = normalised.facts?.segments ?? [];
  const gating: CompiledRule[] = [];
  let gatedSegment: unknown;
  const readRules: string[] = [];
  /** Which segments a read rule matched; allocated when the first one does. */
  let segmentsRead: boolean[] | undefined;
  // Precondition rules do not make a call gated; they are collected beside the class.
  const preconditions: CompiledRule[] = [];
  const plan = planOf(candidates);
  const { entries, byProgram, byList, stamp } = plan;
  // The program-bound (or gated) rules some segment can meet at all; every other one is skipped unevaluated.
  const mark = plan.nextMark();
  for (let s = 0; s < segments.length; s++) {
    const segment = segments[s] as ShellSegment;
    const bound = byProgram.get(segment.program);
    if (bound !== undefined) for (let k = 0; k < bound.length; k++) stamp[bound[k] as number] = mark;
    for (let l = 0; l < byList.length; l++) {
      const [name, gated] = byList[l] as readonly [string, readonly number[]];
      if (!nonEmpty(segment, name)) continue;
      for (let k = 0; k < gated.length; k++) stamp[gated[k] as number] = mark;
    }
  }

  for (let r = 0; r < entries.length; r++) {
    const entry = entries[r] as PlanEntry;
    if (entry.programs !== undefined && stamp[r] !== mark) continue;
    if (entry.action !== undefined && entry.action !== call.action) continue;
    if (entry.args !== undefined && !entry.args(call.args)) continue;
    if (entry.call !== undefined && !entry.call(normalised)) continue;
    const cls = entry.cls;
    let hitSegment: unknown;
    if (entry.segment !== undefined) {
      let any = false;
      const { programs, lists, programTest } = entry;
      for (let i = 0; i < segments.length; i++) {
        const segment = segments[i] as ShellSegment;
        if (programs !== undefined && !programs.has(segment.program) && !someNonEmpty(segment, lists))
          continue;
        if (programTest !== undefined && !programTest(segment.program)) continue;
        // A gating rule also matches another reading of the command words (`npm --tag next publish`);
        // a read rule only the first, so that no reading is taken for a read.
        if (!entry.segment(segment) && (cls === 'read-only' || !someReading(segment, entry.segment)))
          continue;
        any = true;
        if (cls === 'read-only') {
          segmentsRead ??= new Array<boolean>(segments.length).fill(false);
          segmentsRead[i] = true;
        } else {
          hitSegment ??= segment;
          break;
        }
      }
      if (!any) continue;
    }
    const compiled = entry.compiled;
    if (cls === 'read-only') {
      readRules.push(compiled.rule.id);
      continue;
    }
    if (cls === 'precondition') {
      preconditions.push(compiled);
      continue;
    }
    if (compiled.requires) preconditions.push(compiled);
    gating.push(compiled);
    gatedSegment ??= hitSegment;
  }

  const facts = normalised.facts;
  const withPre = (c: Classification): Classification =>
    preconditions.length === 0 ? c : { ...c, preconditions };
  if (gating.length > 0) {
    const cls = gating.some((c) => c.rule.class === 'irreversible') ? 'irreversible' : 'unknown-dynamic';
    return withPre(
      withFacts(
        { class: cls, rules: gating.map((c) => c.rule.id), gating, ...seg(gatedSegment) },
        normalised,
      ),
    );
  }
  // Hints only ever make the gate stricter: rules that name the tool but match no gating predicate
  // (or only a read rule) do not silence a tool that says it is destructive.
  if (hints?.destructiveHint === true) return withPre(withFacts(annotatedDestructive(), normalised));
  if (readRules.length > 0) {
    // A shell call is a read only when every one of its simple commands is a known read.
    const allRead = facts
      ? segments.length > 0 &&
        segmentsRead !== undefined &&
        segmentsRead.every(Boolean) &&
        facts.dynamic.length === 0
      : true;
    if (allRead) return withPre(withFacts({ class: 'read-only', rules: readRules, gating: [] }, normalised));
  }
  // Rules for every tool (tool "*", such as the file-write rules) judge what a call does, not which
  // tool it is: when none matched and no rule names this tool itself, its hints classify it.
  if (call.tool !== SHELL_TOOL && !candidates.some((c) => c.rule.class !== 'precondition' && namesTool(c)))
    return withPre(withFacts(fromHints(hints), normalised));
  return withPre(withFacts({ class: 'unmatched', rules: [], gating: [] }, normalised));
}

function someReading(segment: ShellSegment, test: (segment: ShellSegment) => boolean): boolean {
  const readings = segment.readings;
  if (readings === undefined) return false;
  for (const reading of readings) if (test({ ...segment, ...reading })) return true;
  return false;
}

/** A gate's list (see segment-gate.ts): present and not an empty array. */
function nonEmpty(segment: ShellSegment, name: string): boolean {
  const value = (segment as unknown as Record<string, unknown>)[name];
  return value !== undefined && !(Array.isArray(value) && value.length === 0);
}

function someNonEmpty(segment: ShellSegment, lists: readonly string[] | undefined): boolean {
  if (lists === undefined) return false;
  for (let k = 0; k < lists.length; k++) if (nonEmpty(segment, lists[k] as string)) return true;
  return false;
}

/** Whether a rule names tools (exactly or by a pattern such as delete_*), not every tool ("*"). */
export function namesTool(compiled: CompiledRule): boolean {
  const tools = compiled.rule.tool;
  return !(Array.isArray(tools) ? tools : [tools]).includes('*');
}

/** A tool's class from its hints alone, for a tool no rule names. */
export function fromHints(hints: ToolHints | undefined): Classification {
  if (!hints) return { class: 'unmatched', rules: [], gating: [] };
  // Contradictory hints take the stricter reading.
  if (hints.destructiveHint === true) return annotatedDestructive();
  if (hints.readOnlyHint === true)
    return { class: 'read-only', rules: [ANNOTATION_READ_RULE_ID], gating: [] };
  if (hints.destructiveHint !== false) return annotatedDestructive();
  return { class: 'unmatched', rules: [], gating: [] };
}

function annotatedDestructive(): Classification {
  return { class: 'irreversible', rules: [ANNOTATION_RULE_ID], gating: [] };
}

function segmentText(segment: unknown): string | undefined {
  const text = (segment as { text?: unknown }).text;
  return typeof text === 'string' ? text : undefined;
}

function seg(segment: unknown): { segment?: string; segmentFacts?: unknown } {
  if (segment === undefined) return {};
  const text = segmentText(segment);
  return text === undefined ? { segmentFacts: segment } : { segment: text, segmentFacts: segment };
}

function withFacts(c: Classification, normalised: NormalisedCall): Classification {
  const { facts, writes } = normalised;
  const review = reviewOf(c.gating, normalised);
  return { ...c, ...(facts ? { facts } : {}), ...(writes ? { writes } : {}), ...(review ? { review } : {}) };
}

/** The first gating rule whose `review` applies to this call (its `when` holds over the normalised call). */
function reviewOf(gating: CompiledRule[], normalised: NormalisedCall): Classification['review'] {
  for (const { rule, review } of gating) {
    if (review === undefined || (review.when !== undefined && !review.when(normalised))) continue;
    return { rule: rule.id, ...(review.timeout_s !== undefined ? { timeout_s: review.timeout_s } : {}) };
  }
  return undefined;
}

export function isGated(cls: CallClass): boolean {
  return cls === 'irreversible' || cls === 'unknown-dynamic';
}
