// What an unmet precondition says in the rails: its `why`, and the literal read or call that would
// satisfy it, named from the matcher (a tool with the arguments its schema pins with const or enum,
// a shell command from its segment's program and words), else the matcher's schema itself.
import type { Observation, SourceMatcher } from '@tollgate/contracts';
import type { CompiledRequirement } from './policy/types.js';
import { sanitiseText } from './sanitise.js';

const SCHEMA_CAP = 200;

export function describeUnmet(
  req: CompiledRequirement,
  newest?: Observation,
): { text: string; satisfy: string[] } {
  const satisfy = satisfying(req);
  const why = req.spec.why ?? whatItAsks(req);
  const detail =
    newest !== undefined
      ? `the newest output of ${literal(matcherOf(req))} (${newest.observed_at}) does not satisfy ${schemaText(req.spec.latest_output)}: ${sanitiseText(newest.excerpt, 160)}`
      : `do first: ${satisfy.join(' — or — ')}`;
  return { text: sanitiseText(`${why}; ${detail}`, 1200), satisfy };
}

/** What a requirement asks, in words, when it has no `why`. */
function whatItAsks(req: CompiledRequirement): string {
  if (req.kind === 'any_of') return 'one of these must hold';
  const verb = req.kind === 'observed' ? 'a read (or result) of' : 'a call to';
  const age = req.maxAgeS !== undefined ? ` within the last ${req.maxAgeS} s` : '';
  const after = req.after
    ? ` after the newest ${req.after.kind === 'observed' ? 'read of' : 'call to'} ${literal(req.after.matcher.spec)}`
    : '';
  const output =
    req.spec.latest_output !== undefined
      ? ` whose output satisfies ${schemaText(req.spec.latest_output)}`
      : '';
  return `${verb} ${literal(matcherOf(req))}${age}${after}${output} in this session`;
}

/** The literal actions that would satisfy a requirement (each option of an any_of). */
function satisfying(req: CompiledRequirement): string[] {
  if (req.kind === 'any_of') return req.options.flatMap(satisfying);
  // A read is named as the read itself (`Read {...}`, `git fetch`); a call to make says so.
  const action = req.kind === 'observed' ? '' : 'call ';
  const age = req.maxAgeS !== undefined ? ` (counts for ${req.maxAgeS} s)` : '';
  const after = req.after
    ? ` after ${req.after.kind === 'observed' ? 'the newest read of' : 'the newest call to'} ${literal(req.after.matcher.spec)}`
    : '';
  const output =
    req.spec.latest_output !== undefined
      ? ` with an output that satisfies ${schemaText(req.spec.latest_output)}`
      : '';
  return [`${action}${literal(matcherOf(req))}${after}${output}${age}`];
}

function matcherOf(
  req: Exclude<CompiledRequirement, { kind: 'any_of' }> | CompiledRequirement,
): SourceMatcher {
  return req.kind === 'any_of' ? { tool: '*' } : req.matcher.spec;
}

/** A matcher as the call to make: `Read {"file_path":"/srv/a.md"}`, `git fetch origin`, or its schema. */
export function literal(m: SourceMatcher): string {
  const tools = Array.isArray(m.tool) ? m.tool : [m.tool];
  const [tool] = tools;
  if (tools.length !== 1 || tool === undefined || tool.includes('*')) {
    return sanitiseText(
      `one of ${tools.join('|')}${m.args !== undefined ? ` with args ${schemaText(m.args)}` : ''}`,
      400,
    );
  }
  if (tool === 'shell')
    return sanitiseText(
      shellLiteral(m) ?? `a shell command matching ${schemaText(m.segment ?? m.args)}`,
      400,
    );
  if (m.args === undefined) return sanitiseText(tool, 200);
  const pinned = pinnedArgs(m.args);
  if (pinned === undefined) return sanitiseText(`${tool} with args ${schemaText(m.args)}`, 400);
  return sanitiseText(`${tool} ${JSON.stringify(pinned)}`, 400);
}

/** The arguments a schema pins exactly (const, or a one-value enum); undefined when it pins more than that. */
function pinnedArgs(schema: unknown): Record<string, unknown> | undefined {
  if (schema === true || schema === null || typeof schema !== 'object')
    return schema === true ? {} : undefined;
  const s = schema as { properties?: Record<string, unknown> };
  const out: Record<string, unknown> = {};
  for (const [key, prop] of Object.entries(s.properties ?? {})) {
    const value = pinnedValue(prop);
    if (value !== undefined) out[key] = value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function pinnedValue(prop: unknown): unknown {
  if (prop === null || typeof prop !== 'object') return undefined;
  const p = prop as { const?: unknown; enum?: unknown[] };
  if ('const' in p) return p.const;
  if (Array.isArray(p.enum) && p.enum.length > 0) return p.enum[0];
  return undefined;
}

/** `git fetch` from a segment schema pinning program (or argv0) and leading words (prefixItems/contains). */
function shellLiteral(m: SourceMatcher): string | undefined {
  const seg = m.segment as
    | {
        properties?: {
          program?: unknown;
          argv0?: unknown;
          args?: { prefixItems?: unknown[]; contains?: unknown };
        };
      }
    | undefined;
  const program = pinnedValue(seg?.properties?.program) ?? pinnedValue(seg?.properties?.argv0);
  if (typeof program !== 'string') {
    const command = pinnedValue(
      (m.args as { properties?: { command?: unknown } } | undefined)?.properties?.command,
    );
    return typeof command === 'string' ? command : undefined;
  }
  const words: string[] = [program];
  const sub = pinnedValue((seg?.properties as { subcommand?: unknown } | undefined)?.subcommand);
  if (typeof sub === 'string') words.push(sub);
  const args = seg?.properties?.args;
  for (const item of args?.prefixItems ?? []) {
    const w = pinnedValue(item);
    if (typeof w !== 'string') break;
    words.push(w);
  }
  const contained = pinnedValue(args?.contains);
  if (typeof contained === 'string' && !words.includes(contained)) words.push(contained);
  return words.join(' ');
}

function schemaText(schema: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(schema) ?? String(schema);
  } catch {
    text = String(schema);
  }
  return text.length > SCHEMA_CAP ? `${text.slice(0, SCHEMA_CAP - 1)}…` : text;
}
