// classifyTool: what a tool's calls can be, judged from its name and hints alone (no arguments), for
// adapters that must describe a tool before any call arrives (the MCP proxy's tools/list).
import { ANNOTATION_RULE_ID, type CallClass, fromHints, namesTool, type ToolHints } from './classify.js';
import type { Policy } from './policy/types.js';

export interface ToolClassification {
  /** The most guarded class any call of this tool can get. */
  class: CallClass;
  /** True when the class depends on the arguments (the deciding rules carry predicates). */
  conditional: boolean;
  /** The rules that decide: the gating rules, or the read rules of a read-only tool. */
  rules: string[];
}

export function classifyTool(policy: Policy, tool: string, hints?: ToolHints): ToolClassification {
  // Rules for every tool ("*") judge what a call does (the files it writes), not the tool: they gate
  // at call time and say nothing about how a tool is listed.
  const named = policy.rulesFor(tool).filter(namesTool);
  if (named.length === 0) {
    // No rule names the tool: the call-level classifier falls back to the hints, and so do we.
    const byHints = fromHints(hints);
    return { class: byHints.class, conditional: false, rules: byHints.rules };
  }
  // Rules bound to an action never match an action-less tool call (but still silence the hints).
  const candidates = named.filter((c) => c.rule.action === undefined);
  const hasPredicate = (c: (typeof candidates)[number]) =>
    c.args !== undefined || c.call !== undefined || c.segment !== undefined;
  const gating = candidates.filter((c) => c.rule.class !== 'read-only');
  if (hints?.destructiveHint === true && !gating.some((c) => !hasPredicate(c))) {
    // A call no gating rule matches is gated by the annotation (classify), so every call is gated.
    return {
      class: 'irreversible',
      conditional: false,
      rules: [...gating.map((c) => c.rule.id), ANNOTATION_RULE_ID],
    };
  }
  if (gating.length > 0) {
    return {
      class: gating.some((c) => c.rule.class === 'irreversible') ? 'irreversible' : 'unknown-dynamic',
      conditional: gating.every(hasPredicate),
      rules: gating.map((c) => c.rule.id),
    };
  }
  const reads = candidates.filter((c) => !hasPredicate(c));
  if (reads.length > 0) return { class: 'read-only', conditional: false, rules: reads.map((c) => c.rule.id) };
  return { class: 'unmatched', conditional: true, rules: [] };
}
