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
  return { entries, byProgram };
}
