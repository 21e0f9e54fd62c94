// Source matchers: which reads (observation sources) a rule accepts as evidence, in the same
// predicate language as `match` — a tool name (exact, list or glob) with a JSON Schema over its args,
// or over each simple command of a shell read. Compiled once with the rule.
import type { Source, SourceMatcher } from '@tollgate/contracts';
import { parseShell, type ShellFacts } from '@tollgate/shell';
import type { Predicate } from './types.js';

export interface CompiledMatcher {
  spec: SourceMatcher;
  tool: (name: string) => boolean;
  args?: Predicate;
  segment?: Predicate;
}

/** A source made ready for matching: the shell read parsed once, however many matchers look at it. */
export interface ReadView {
  tool: string;
  args: Record<string, unknown>;
  facts?: ShellFacts;
}

export function readView(source: Source): ReadView {
  if (typeof source === 'string') {
    return { tool: 'shell', args: { command: source }, facts: parseShell(source) };
  }
  return { tool: source.tool, args: source.args ?? {} };
}

export function compileMatcher(
  spec: SourceMatcher,
  predicate: (key: 'args' | 'segment') => Predicate | undefined,
): CompiledMatcher {
  const names = Array.isArray(spec.tool) ? spec.tool : [spec.tool];
  const patterns = names.map(toolPattern);
  const out: CompiledMatcher = { spec, tool: (name) => patterns.some((p) => p(name)) };
  const args = predicate('args');
  const segment = predicate('segment');
  if (args) out.args = args;
  if (segment) out.segment = segment;
  return out;
}

/** Whether the read fits the matcher's tool and predicates (relations to the call are checked elsewhere). */
export function matchesRead(matcher: CompiledMatcher, read: ReadView): boolean {
  if (!matcher.tool(read.tool)) return false;
  if (matcher.args && !matcher.args(read.args)) return false;
  if (matcher.segment) {
    const segments = read.facts?.segments ?? [];
    if (!segments.some((s) => !s.via.includes('quoted') && matcher.segment?.(s))) return false;
  }
  return true;
}

function toolPattern(name: string): (tool: string) => boolean {
  if (!name.includes('*')) return (tool) => tool === name;
  const re = globToRegExp(name);
  return (tool) => re.test(tool);
}

export function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`);
}
