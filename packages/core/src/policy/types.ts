// Compiled policy shapes: rules with their predicates compiled once, indexed by tool.
import type { Requirement, Rule } from '@tollgate/contracts';
import type { CompiledMatcher } from './matchers.js';
import type { SegmentGate } from './segment-gate.js';

export type Predicate = (value: unknown) => boolean;

export interface CompiledRule {
  rule: Rule;
  /** The file the rule came from, for messages. */
  file: string;
  args?: Predicate;
  segment?: Predicate;
  /** The only programs the segment predicate can match (see segment-programs.ts); absent: any. */
  segmentPrograms?: ReadonlySet<string>;
  /** Otherwise, the programs or non-empty lists a segment needs to match at all (see segment-gate.ts). */
  segmentGate?: SegmentGate;
  /** Otherwise, a test the program of every matching segment passes (a pattern; see segment-programs.ts). */
  segmentProgramTest?: (program: string) => boolean;
  call?: Predicate;
  /** `evidence.accept`: the reads that count as evidence for this rule (absent: derived, see evidence-relevance.ts). */
  accept?: CompiledMatcher[];
  /** `evidence.required`: reads that must each be cited. */
  required?: CompiledMatcher[];
  /** `requires`: the preconditions a matching call must meet (see preconditions.ts). */
  requires?: CompiledRequirement[];
  /** `review`: a person answers a matching call first, when `when` holds (absent: always). */
  review?: { when?: Predicate; timeout_s?: number };
}

/** Which ledger events a requirement or its anchor looks at: observations, or dispatched decisions. */
export type EventKind = 'observed' | 'dispatched';

export interface CompiledAnchor {
  kind: EventKind;
  matcher: CompiledMatcher;
}

export type CompiledRequirement =
  | {
      kind: EventKind;
      spec: Requirement;
      matcher: CompiledMatcher;
      /** `latest_output`, compiled with `$data` (observed only). */
      output?: Predicate;
      maxAgeS?: number;
      after?: CompiledAnchor;
    }
  | { kind: 'any_of'; spec: Requirement; options: CompiledRequirement[] };

export interface Policy {
  readonly rules: readonly CompiledRule[];
  /** Rules that may apply to this tool name (exact, listed, or by wildcard). */
  rulesFor(tool: string): readonly CompiledRule[];
  byId(id: string): CompiledRule | undefined;
}
