// Which reads count as evidence for a gated call. Only reads of state count (output that depends on
// something outside the command line), and only reads a gating rule accepts: its `evidence.accept`
// matchers, or, when it lists none, reads derived from the rule itself — its suggested reads, its
// probe, and for shell rules any read that runs the gated program (a git rule accepts git reads).
// A matcher may also ask that the read be related to the call: the same paths, or the same program.
import type { Source } from '@tollgate/contracts';
import { parseShell, type ShellSegment, stateRead } from '@tollgate/shell';
import { sourceText } from './call.js';
import { pathsOfArgs, pathsOfRead, pathsOfSegment, relatedPaths } from './call-paths.js';
import type { Classification } from './classify.js';
import { type CompiledMatcher, matchesRead, type ReadView, readView } from './policy/matchers.js';
import type { CompiledRule } from './policy/types.js';

export type Acceptance =
  | { ok: true /** Keys of the required matchers this read satisfies (`rule#index`). */; satisfies: string[] }
  | { ok: false; why: string };

export interface Relevance {
  accept(source: Source): Acceptance;
  /** What would count, one line each, for messages and rails. */
  accepted: string[];
  /** The required reads by key, with their description. */
  required: { key: string; describe: string }[];
}

interface CallScope {
  tool: string;
  args: Record<string, unknown>;
  /** The simple command a gating rule matched, for shell calls. */
  segment?: ShellSegment;
  /** The call's own write targets, when known. */
  writes?: readonly string[];
  /** Where the call runs: relative paths of the call and of reads resolve against it. */
  cwd?: string;
}

export function relevanceFor(classification: Classification, call: CallScope): Relevance {
  const rules = classification.gating;
  const segment = call.segment ?? (classification.segmentFacts as ShellSegment | undefined);
  const callPaths = [...(segment ? pathsOfSegment(segment) : pathsOfArgs(call.args)), ...(call.writes ?? [])];
  const lists = rules.map((r) => ({ rule: r, accept: acceptOf(r) }));
  if (lists.length === 0) lists.push({ rule: undefined as unknown as CompiledRule, accept: [ANY_READ] });
  const required = rules.flatMap((r) =>
    (r.required ?? []).map((m, i) => ({ key: `${r.rule.id}#${i}`, matcher: m })),
  );

  const related = (m: CompiledMatcher, read: ReadView): boolean => {
    if (m.spec.related === 'program') {
      if (!segment) return true;
      return (read.facts?.segments ?? []).some((s) => s.program === segment.program);
    }
    if (m.spec.related === 'paths') {
      const readPaths = read.facts
        ? read.facts.segments.flatMap((s) => pathsOfRead(s))
        : pathsOfArgs(read.args);
      return relatedPaths(callPaths, readPaths, call.cwd);
    }
    return true;
  };
  const fits = (m: CompiledMatcher, read: ReadView) => matchesRead(m, read) && related(m, read);

  return {
    accepted: [...new Set(lists.flatMap((l) => l.accept.map(describeMatcher)))],
    required: required.map((r) => ({ key: r.key, describe: describeMatcher(r.matcher) })),
    accept(source: Source): Acceptance {
      const read = readView(source);
      if (read.facts) {
        const state = stateRead(read.facts);
        if (!state.state)
          return {
            ok: false,
            why: `${quotedSource(source)} prints only what its own words say (no file, repository, database or service is read), so its output proves nothing about the state`,
          };
        if (state.own_output)
          return {
            ok: false,
            why: `part of ${quotedSource(source)} (${state.own_output_from ?? 'echo'}) prints text of the command's own into the output, so no quote from it can be told apart from what the command wrote — run the read on its own`,
          };
      }
      const ok = lists.some((l) => l.accept.some((m) => fits(m, read)));
      if (!ok)
        return {
          ok: false,
          why: `${quotedSource(source)} is not a read this rule accepts as evidence`,
        };
      return { ok: true, satisfies: required.filter((r) => fits(r.matcher, read)).map((r) => r.key) };
    },
  };
}

function quotedSource(source: Source): string {
  const text = sourceText(source);
  return `"${text.length > 120 ? `${text.slice(0, 117)}...` : text}"`;
}

/** Any read of state, for calls gated without a rule to say more (an MCP destructive annotation). */
const ANY_READ: CompiledMatcher = { spec: { tool: '*', why: 'any read of the state' }, tool: () => true };

const derived = new WeakMap<CompiledRule, CompiledMatcher[]>();

/** The rule's accept list, or the one derived from its suggested reads, probe and program. */
export function acceptOf(compiled: CompiledRule): CompiledMatcher[] {
  if (compiled.accept) return compiled.accept;
  let list = derived.get(compiled);
  if (list) return list;
  const { rule } = compiled;
  const programs = new Set<string>();
  const tools = new Set<string>();
  for (const read of [...(rule.evidence?.reads ?? []), ...(rule.probe ? [rule.probe] : [])]) {
    if (typeof read !== 'string') tools.add(read.tool);
    else for (const s of parseShell(read.replace(/\{\{[^}]*\}\}/g, 'x')).segments) programs.add(s.program);
  }
  list = [];
  if (programs.size > 0)
    list.push({
      spec: { tool: 'shell', why: `a read with ${[...programs].join(', ')}` },
      tool: (t) => t === 'shell',
      segment: (s) => programs.has((s as ShellSegment).program),
    });
  if (tools.size > 0)
    list.push({
      spec: { tool: [...tools] as [string, ...string[]], why: [...tools].join(', ') },
      tool: (t) => tools.has(t),
    });
  const ruleTools = Array.isArray(rule.tool) ? rule.tool : [rule.tool];
  if (ruleTools.includes('shell'))
    list.push({
      spec: { tool: 'shell', related: 'program', why: 'a read with the same program' },
      tool: (t) => t === 'shell',
    });
  if (list.length === 0) list.push(ANY_READ);
  derived.set(compiled, list);
  return list;
}

/** One line saying what a matcher accepts. */
export function describeMatcher(m: CompiledMatcher): string {
  if (m.spec.why) return m.spec.why;
  const tools = Array.isArray(m.spec.tool) ? m.spec.tool.join('|') : m.spec.tool;
  const programs = programsIn(m.spec.segment);
  const what = tools === 'shell' && programs.length > 0 ? `a read with ${programs.join(', ')}` : tools;
  const rel =
    m.spec.related === 'paths'
      ? ' of the same path (or its directory)'
      : m.spec.related === 'program'
        ? ' running the same program'
        : '';
  return `${what}${rel}`;
}

function programsIn(schema: unknown): string[] {
  const program = (schema as { properties?: { program?: { enum?: unknown; const?: unknown } } } | undefined)
    ?.properties?.program;
  if (Array.isArray(program?.enum)) return program.enum.filter((p): p is string => typeof p === 'string');
  return typeof program?.const === 'string' ? [program.const] : [];
}
