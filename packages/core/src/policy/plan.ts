// The evaluation plan of one tool's candidate rules: what classification reads of each rule, in
// objects of one shape (compiled rules carry optional fields in many combinations, which makes every
// property read in the hot loop polymorphic), and an index from a segment's program to the rules
// whose segment predicate can match it (segment-programs.ts), so that a command's segments select
// the few program-bound rules worth evaluating at all. Built once per candidate list.
import type { Rule } from '@tollgate/contracts';
import type { CompiledRule, Predicate } from './types.js';

export interface PlanEntry {
  compiled: CompiledRule;
  action: string | undefined;
  args: Predicate | undefined;
  call: Predicate | undefined;
  segment: Predicate | undefined;
  /** The only programs `segment` can match; undefined: any. */
  programs: ReadonlySet<string> | undefined;
  cls: Rule['class'];
}

export interface Plan {
  entries: readonly PlanEntry[];
  /** Program → indices (into `entries`, ascending) of the rules bound to that program. */
  byProgram: ReadonlyMap<string, readonly number[]>;
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

function buildPlan(candidates: readonly CompiledRule[]): Plan {
  const byProgram = new Map<string, number[]>();
  const entries = candidates.map((compiled, i): PlanEntry => {
    const programs = compiled.segment ? compiled.segmentPrograms : undefined;
    for (const program of programs ?? []) {
      const list = byProgram.get(program);
      if (list) list.push(i);
      else byProgram.set(program, [i]);
    }
    return {
      compiled,
      action: compiled.rule.action,
      args: compiled.args,
      call: compiled.call,
      segment: compiled.segment,
      programs,
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
  return { entries, byProgram, stamp, nextMark };
}
