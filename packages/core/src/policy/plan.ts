// The evaluation plan of one tool's candidate rules: what classification reads of each rule, in
// objects of one shape (compiled rules carry optional fields in many combinations, which makes every
// property read in the hot loop polymorphic), and an index from a segment's program to the rules
// whose segment predicate can match it (segment-programs.ts, segment-gate.ts), so that a command's segments select
// the few program-bound rules worth evaluating at all. Built once per candidate list.
import type { Rule } from '@tollgate/contracts';
import type { CompiledRule, Predicate } from './types.js';

export interface PlanEntry {
  compiled: CompiledRule;
  action: string | undefined;
  args: Predicate | undefined;
  call: Predicate | undefined;
  segment: Predicate | undefined;
  /**
   * The programs `segment` can match; undefined: any. With `lists`, the rule is gated (see
   * segment-gate.ts): a segment of another program can still match when one of them is non-empty.
   */
  programs: ReadonlySet<string> | undefined;
  /** Segment properties of which one must be present and not an empty array, else `programs` decides; undefined: none. */
  lists: readonly string[] | undefined;
  /** Else a test the program of a segment the predicate can match passes (remembered per program); undefined: none. */
  programTest: ((program: string) => boolean) | undefined;
  cls: Rule['class'];
}

export interface Plan {
  entries: readonly PlanEntry[];
  /** Program → indices (into `entries`, ascending) of the rules bound to that program. */
  byProgram: ReadonlyMap<string, readonly number[]>;
  /** Segment property, with the indices of the gated rules a segment with that property non-empty can meet. */
  byList: readonly (readonly [string, readonly number[]])[];
  /**
   * Scratch for one classification at a time (classification is synchronous): `stamp[i] === mark`
   * when rule i's program is met by some segment of the call in hand. `nextMark()` starts a call.
   */
  stamp: Uint32Array;
  nextMark(): number;
}

const plans = new WeakMap<readonly CompiledRule[], Plan>();

export function planOf(candidates: readonly CompiledRule[]): Plan {
  let plan = plans.get(candidates);
  if (plan === undefined) {
    plan = buildPlan(candidates);
    plans.set(candidates, plan);
  }
  return plan;
}

function add(index: Map<string, number[]>, key: string, i: number): void {
  const list = index.get(key);
  if (list) list.push(i);
  else index.set(key, [i]);
}

/** A program test remembered per program name (a bounded number of them: names are few). */
function remembered(test: (program: string) => boolean): (program: string) => boolean {
  const known = new Map<string, boolean>();
  return (program) => {
    let result = known.get(program);
    if (result === undefined) {
      result = test(program);
      if (known.size < 4096) known.set(program, result);
    }
    return result;
  };
}

function buildPlan(candidates: readonly CompiledRule[]): Plan {
  const byProgram = new Map<string, number[]>();
  const byList = new Map<string, number[]>();
  const entries = candidates.map((compiled, i): PlanEntry => {
    const gate = compiled.segment ? compiled.segmentGate : undefined;
    const programs = compiled.segment ? (compiled.segmentPrograms ?? gate?.programs) : undefined;
    const lists = compiled.segment && !compiled.segmentPrograms ? gate?.lists : undefined;
    for (const program of programs ?? []) add(byProgram, program, i);
    for (const name of lists ?? []) add(byList, name, i);
    return {
      compiled,
      action: compiled.rule.action,
      args: compiled.args,
      call: compiled.call,
      segment: compiled.segment,
      programs,
      lists: lists !== undefined && lists.length > 0 ? lists : undefined,
      programTest:
        compiled.segment && programs === undefined && compiled.segmentProgramTest
          ? remembered(compiled.segmentProgramTest)
          : undefined,
      cls: compiled.rule.class,
    };
  });
  const stamp = new Uint32Array(entries.length);
  let mark = 0;
  const nextMark = () => {
    mark = (mark + 1) >>> 0;
    if (mark === 0) {
      // Wrapped after 2^32 calls: old stamps could collide, so clear them.
      stamp.fill(0);
      mark = 1;
    }
    return mark;
  };
  return { entries, byProgram, byList: [...byList], stamp, nextMark };
}
