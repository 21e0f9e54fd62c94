// Turns rule documents into a Policy: validates each file against the policy schema, compiles every
// argument predicate once with ajv, and indexes rules by tool so an unmatched call costs a map lookup.
import type { Policy as PolicyDoc, Requirement, Rule } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { TollgateFault } from '../faults.js';
import { fastPredicate, isFastForm } from './fast-predicate.js';
import { compileMatcher, globToRegExp } from './matchers.js';
import { segmentGate } from './segment-gate.js';
import { segmentPrograms, segmentProgramTest } from './segment-programs.js';
import { predicateSites } from './sites.js';
import type { CompiledRequirement, CompiledRule, Policy, Predicate } from './types.js';

export interface PolicySource {
  /** A name for messages, usually the file path. */
  file: string;
  text: string;
  /** The document already parsed from `text` (a build step or cache did it), so YAML is not parsed again. */
  doc?: unknown;
  /**
   * `doc` was checked against the policy schema when a build step embedded it (the shipped
   * catalogues in the CLI bundle), so it is not checked again. Never set for a document read at run time.
   */
  validated?: true;
}

/** Where a predicate sits, for messages and for looking up a precompiled one. */
export interface PredicateSite {
  file: string;
  rule: string;
  /** `args`, `segment`, `call`, or an evidence matcher's (`evidence.accept/0/segment`); see sites.ts. */
  key: string;
  path: string;
  /** A `latest_output` schema, compiled with OUTPUT_AJV_OPTIONS. */
  data?: true;
}

/**
 * Supplies a compiled predicate for a schema (precompiled at build time, or cached); undefined lets
 * the gate compile it with ajv. The CLI precompiles the shipped catalogue and caches user policies.
 */
export type PredicateSource = (schema: unknown, site: PredicateSite) => Predicate | undefined;

export interface CompileOptions {
  predicates?: PredicateSource;
}

/**
 * How every rule predicate is compiled — here, in the CLI's build-time precompilation and in its
 * predicate cache — so a precompiled predicate answers exactly as a fresh one. A predicate only
 * answers yes or no: no error messages, no unevaluated* tracking (those keywords are not for rules).
 */
export const PREDICATE_AJV_OPTIONS = {
  strict: true,
  allowUnionTypes: true,
  allErrors: false,
  messages: false,
  unevaluated: false,
} as const;

/**
 * How a precondition's `latest_output` schema is compiled: as a predicate, plus `$data` so one field
 * of the output can be compared with another (`minimum: {$data: "1/max_cycles"}`). Kept apart from
 * the match predicates, whose meaning must not change (`{"$data": …}` there is a literal).
 */
export const OUTPUT_AJV_OPTIONS = {
  ...PREDICATE_AJV_OPTIONS,
  $data: true,
  // A tool's output is any JSON: `required` or `properties` without `type: object` mean what they
  // say on an object and pass on anything else, as in plain JSON Schema (unknown keywords still fail).
  strictTypes: false,
  strictRequired: false,
  strictTuples: false,
} as const;

let predicateAjv: Ajv2020 | undefined;
let outputAjv: Ajv2020 | undefined;
function ajv(data: boolean): Ajv2020 {
  if (data) {
    outputAjv ??= new Ajv2020(OUTPUT_AJV_OPTIONS);
    return outputAjv;
  }
  predicateAjv ??= new Ajv2020(PREDICATE_AJV_OPTIONS);
  return predicateAjv;
}

export function parsePolicyText(source: PolicySource): PolicyDoc {
  if (source.validated && source.doc !== undefined) return source.doc as PolicyDoc;
  const doc = source.doc !== undefined ? source.doc : parseYamlSource(source);
  const result = validate<PolicyDoc>('policy', doc);
  if (!result.valid) {
    const first = result.problems[0];
    const ruleId = ruleIdAt(doc, first?.path ?? '');
    throw new TollgateFault(
      'policy_invalid',
      `${source.file}${ruleId ? ` rule ${ruleId}` : ''} at ${first?.path || '/'}: ${first?.message ?? 'invalid'}`,
      { file: source.file, rule: ruleId, problems: result.problems },
    );
  }
  return result.data;
}

function parseYamlSource(source: PolicySource): unknown {
  try {
    return parseYaml(source.text);
  } catch (error) {
    throw new TollgateFault('policy_invalid', `${source.file}: not valid YAML: ${(error as Error).message}`, {
      file: source.file,
    });
  }
}

function ruleIdAt(doc: unknown, path: string): string | undefined {
  const match = /^\/rules\/(\d+)/.exec(path);
  if (!match) return undefined;
  const rules = (doc as { rules?: { id?: unknown }[] }).rules;
  const id = rules?.[Number(match[1])]?.id;
  return typeof id === 'string' ? id : `#${match[1]}`;
}

export function compilePolicy(sources: readonly PolicySource[], options: CompileOptions = {}): Policy {
  const compiled: CompiledRule[] = [];
  const seen = new Map<string, string>();
  for (const source of sources) {
    const doc = parsePolicyText(source);
    for (const [i, rule] of doc.rules.entries()) {
      if (rule.enabled === false) continue;
      const earlier = seen.get(rule.id);
      if (earlier !== undefined) {
        throw new TollgateFault(
          'policy_invalid',
          `${source.file} rule ${rule.id}: id already defined in ${earlier}`,
          {
            file: source.file,
            rule: rule.id,
          },
        );
      }
      seen.set(rule.id, source.file);
      compiled.push(compileRule(rule, source.file, i, options));
    }
  }
  return indexPolicy(compiled);
}

function compileRule(rule: Rule, file: string, index: number, options: CompileOptions): CompiledRule {
  const out: CompiledRule = { rule, file };
  const compiled = new Map<string, Predicate>();
  for (const { key, path, schema, data } of predicateSites(rule, index)) {
    const site = { file, rule: rule.id, key, path, ...(data ? { data } : {}) };
    // ajv compiles (and so checks) every schema; within the subset fast-predicate.ts handles, the
    // same meaning is evaluated without ajv's error objects once the predicate is in steady use, or
    // from the start when the source already gives a fast form (the CLI's precompiled catalogues).
    // `$data` schemas stay with ajv.
    const checked = options.predicates?.(schema, site) ?? compilePredicate(schema, site);
    compiled.set(key, data || isFastForm(checked) ? checked : warming(schema, checked));
  }
  for (const key of ['args', 'segment', 'call'] as const) {
    const predicate = compiled.get(key);
    if (predicate) out[key] = predicate;
  }
  const programs = segmentPrograms(rule.match?.segment);
  if (programs) out.segmentPrograms = programs;
  else {
    const gate = segmentGate(rule.match?.segment);
    if (gate) out.segmentGate = gate;
    else {
      const test = segmentProgramTest(rule.match?.segment);
      if (test) out.segmentProgramTest = test;
    }
  }
  for (const list of ['accept', 'required'] as const) {
    const specs = rule.evidence?.[list];
    if (specs === undefined) continue;
    out[list] = specs.map((spec, i) =>
      compileMatcher(spec, (key) => compiled.get(`evidence.${list}/${i}/${key}`)),
    );
  }
  if (rule.review !== undefined) {
    const when = compiled.get('review.when');
    const timeout = typeof rule.review === 'object' ? rule.review.timeout_s : undefined;
    out.review = { ...(when ? { when } : {}), ...(timeout !== undefined ? { timeout_s: timeout } : {}) };
  }
  if (rule.requires !== undefined) {
    out.requires = rule.requires.map((r, i) => compileRequirement(r, `requires/${i}`, compiled));
  }
  return out;
}

/** A requirement with the predicates predicateSites compiled for it (same keys, see sites.ts). */
function compileRequirement(
  spec: Requirement,
  key: string,
  compiled: ReadonlyMap<string, Predicate>,
): CompiledRequirement {
  if (spec.any_of !== undefined) {
    return {
      kind: 'any_of',
      spec,
      options: spec.any_of.map((o, i) => compileRequirement(o, `${key}/any_of/${i}`, compiled)),
    };
  }
  const kind = spec.observed !== undefined ? 'observed' : 'dispatched';
  const matcherSpec = spec[kind];
  if (matcherSpec === undefined) throw new Error(`requirement ${key}: neither observed nor dispatched`);
  const out: CompiledRequirement = {
    kind,
    spec,
    matcher: compileMatcher(matcherSpec, (m) => compiled.get(`${key}/${kind}/${m}`)),
  };
  const output = compiled.get(`${key}/latest_output`);
  if (output) out.output = output;
  if (spec.max_age_s !== undefined) out.maxAgeS = spec.max_age_s;
  const anchorKind = spec.after?.observed !== undefined ? 'observed' : 'dispatched';
  const anchor = spec.after?.[anchorKind];
  if (anchor !== undefined) {
    out.after = {
      kind: anchorKind,
      matcher: compileMatcher(anchor, (m) => compiled.get(`${key}/after/${anchorKind}/${m}`)),
    };
  }
  return out;
}

/**
 * Evaluations of a predicate before its fast form is built (see `warming`). At 32, a hook judging a
 * 60-line script crossed it for a dozen predicates and spent ~2.5 ms building fast forms it then used
 * a few times; a batch or a server crosses 512 within its first hundred calls.
 */
export const FAST_AFTER_CALLS = 512;

/**
 * A predicate that answers with `checked` (ajv's, or the precompiled one) for its first
 * FAST_AFTER_CALLS evaluations and then with its fast form, when the schema has one. Building a
 * fast form costs about 0.1 ms: a hook process judges one call (even a long script) and never pays
 * it; a batch or a server does once per predicate it keeps using.
 */
function warming(schema: unknown, checked: Predicate): Predicate {
  let calls = 0;
  let impl = checked;
  return (value) => {
    if (++calls === FAST_AFTER_CALLS) impl = fastPredicate(schema) ?? checked;
    return impl(value);
  };
}

function compilePredicate(schema: unknown, where: PredicateSite): Predicate {
  try {
    const fn = ajv(where.data === true).compile(schema as object);
    return (value) => fn(value) === true;
  } catch (error) {
    throw new TollgateFault(
      'policy_invalid',
      `${where.file} rule ${where.rule} at ${where.path}: predicate is not a valid JSON Schema: ${(error as Error).message}`,
      { ...where },
    );
  }
}

function indexPolicy(rules: CompiledRule[]): Policy {
  const exact = new Map<string, CompiledRule[]>();
  const wildcard: { pattern: RegExp; rule: CompiledRule }[] = [];
  const byId = new Map<string, CompiledRule>();
  for (const compiled of rules) {
    byId.set(compiled.rule.id, compiled);
    const tools = Array.isArray(compiled.rule.tool) ? compiled.rule.tool : [compiled.rule.tool];
    for (const tool of tools) {
      if (tool.includes('*')) wildcard.push({ pattern: globToRegExp(tool), rule: compiled });
      else exact.set(tool, [...(exact.get(tool) ?? []), compiled]);
    }
  }
  const cache = new Map<string, readonly CompiledRule[]>();
  return {
    rules,
    byId: (id) => byId.get(id),
    rulesFor(tool) {
      let found = cache.get(tool);
      if (!found) {
        const hits = wildcard.filter((w) => w.pattern.test(tool)).map((w) => w.rule);
        found = hits.length === 0 ? (exact.get(tool) ?? []) : [...(exact.get(tool) ?? []), ...hits];
        if (cache.size < 4096) cache.set(tool, found);
      }
      return found;
    },
  };
}
