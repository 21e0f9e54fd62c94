// Rule predicates as plain boolean closures, for the subset of JSON Schema the catalogues use (type,
// properties, required, enum and const of primitives, pattern, contains, items, prefixItems,
// minItems, maxItems, allOf, anyOf, oneOf, not, annotations). ajv's validators build an error
// object for every failing keyword, and most predicates fail on most segments: that was a third of
// what classification allocated. A schema with any other keyword gets no fast form (undefined), and
// ajv's validator is used. The schema is always compiled (and so checked) by ajv first: this only
// replaces how an accepted schema is evaluated, with the same meaning (fast-predicate.test.ts
// compares the two over the shipped catalogues).
import type { Predicate } from './types.js';

type Schema = Record<string, unknown>;

/** Keywords that only annotate: they never change a result. */
const ANNOTATIONS = new Set(['$comment', 'description', 'title', 'examples', 'default', 'deprecated']);
const HANDLED = new Set([
  'type',
  'properties',
  'required',
  'enum',
  'const',
  'pattern',
  'contains',
  'items',
  'prefixItems',
  'minItems',
  'maxItems',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
]);

class Unsupported extends Error {}

/** Fast forms, here or built from their source at build time: they need no warming (compile.ts). */
const FAST_FORMS = new WeakSet<Predicate>();

/** Marks `fn` as a fast form: a function evaluated from fastPredicateSource's expression. */
export function fastForm(fn: Predicate): Predicate {
  FAST_FORMS.add(fn);
  return fn;
}

export function isFastForm(fn: Predicate): boolean {
  return FAST_FORMS.has(fn);
}

/** A boolean closure with the meaning ajv gives the schema, or undefined outside the subset. */
export function fastPredicate(schema: unknown): Predicate | undefined {
  const source = fastPredicateSource(schema);
  if (source === undefined) return undefined;
  return fastForm(new Function(`"use strict"; return ${source};`)() as Predicate);
}

/**
 * The fast form as a JavaScript expression that evaluates to the predicate, or undefined outside the
 * subset. fastPredicate evaluates it at run time; the CLI's build writes it into the bundle for the
 * shipped catalogues, so a process neither builds nor keeps ajv's code for them.
 */
export function fastPredicateSource(schema: unknown): string | undefined {
  try {
    return compile(schema);
  } catch (error) {
    if (error instanceof Unsupported) return undefined;
    throw error;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const isPrimitive = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** A primitive as a literal: JSON's, except the numbers JSON cannot spell (YAML can: .inf, .nan). */
function literal(value: unknown): string {
  if (typeof value !== 'number' || Number.isFinite(value))
    return Object.is(value, -0) ? '-0' : JSON.stringify(value);
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
}

/**
 * One schema node as the source of a function (as ajv generates its validators): property names are
 * written into the code, so each access site stays monomorphic, and every sub-schema is its own
 * function called from exactly one site. Every value from the schema enters the code as a JSON
 * literal (names, patterns given to the RegExp constructor, enum members), never as code; regular
 * expressions, sets and sub-functions are constants built once, beside the function.
 */
function compile(schema: unknown): string {
  if (schema === true) return '() => true';
  if (schema === false) return '() => false';
  if (!isObject(schema)) throw new Unsupported('not a schema');
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) throw new Unsupported(key);
  }
  const s = schema as Schema;
  const consts: string[] = [];
  const ref = (code: string) => `c${consts.push(code) - 1}`;
  const lines: string[] = [];
  if (s.type !== undefined) lines.push(`if (!(${typeCode(s.type)})) return false;`);
  objectCode(s, lines, ref);
  arrayCode(s, lines, ref);
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string') throw new Unsupported('pattern');
    new RegExp(s.pattern, 'u'); // a pattern the u flag rejects throws here, as it does in ajv
    const re = ref(`new RegExp(${JSON.stringify(s.pattern)}, "u")`);
    lines.push(`if (typeof v === 'string' && !${re}.test(v)) return false;`);
  }
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum) || !s.enum.every(isPrimitive)) throw new Unsupported('enum');
    const values = s.enum as unknown[];
    if (values.every((v) => typeof v === 'string')) {
      lines.push(
        `if (typeof v !== 'string' || !${ref(`new Set(${JSON.stringify(values)})`)}.has(v)) return false;`,
      );
    } else
      lines.push(`if (!${ref(`[${values.map(literal).join(', ')}]`)}.some((x) => x === v)) return false;`);
  }
  if (s.const !== undefined) {
    if (!isPrimitive(s.const)) throw new Unsupported('const');
    lines.push(`if (v !== ${literal(s.const)}) return false;`);
  }
  if (s.allOf !== undefined)
    for (const part of list(s.allOf)) lines.push(`if (!${ref(compile(part))}(v)) return false;`);
  if (s.anyOf !== undefined) {
    const parts = list(s.anyOf).map((part) => `${ref(compile(part))}(v)`);
    lines.push(`if (!(${parts.join(' || ')})) return false;`);
  }
  if (s.oneOf !== undefined) {
    const parts = list(s.oneOf).map((part) => `(${ref(compile(part))}(v) ? 1 : 0)`);
    lines.push(`if (${parts.join(' + ')} !== 1) return false;`);
  }
  if (s.not !== undefined) lines.push(`if (${ref(compile(s.not))}(v)) return false;`);
  if (lines.length === 0) return '() => true';
  const check = `function check(v) {\n${lines.join('\n')}\nreturn true;\n}`;
  if (consts.length === 0) return `(${check})`;
  return `(() => {\n${consts.map((code, i) => `const c${i} = ${code};`).join('\n')}\nreturn ${check};\n})()`;
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw new Unsupported('schema list');
  return value;
}

const TYPE_CODE: Record<string, string> = {
  string: "typeof v === 'string'",
  boolean: "typeof v === 'boolean'",
  null: 'v === null',
  number: "typeof v === 'number' && Number.isFinite(v)",
  integer: "typeof v === 'number' && Number.isInteger(v)",
  array: 'Array.isArray(v)',
  object: "v !== null && typeof v === 'object' && !Array.isArray(v)",
};

function typeCode(type: unknown): string {
  const types = Array.isArray(type) ? type : [type];
  if (types.length === 0) throw new Unsupported('type');
  return types
    .map((t) => {
      const code = typeof t === 'string' && Object.hasOwn(TYPE_CODE, t) ? TYPE_CODE[t] : undefined;
      if (code === undefined) throw new Unsupported(`type ${String(t)}`);
      return `(${code})`;
    })
    .join(' || ');
}

/** `required` and `properties`: they apply to objects only (anything else passes them). */
function objectCode(s: Schema, lines: string[], ref: (code: string) => string): void {
  const { required, properties } = s;
  if (required === undefined && properties === undefined) return;
  if (required !== undefined && (!Array.isArray(required) || !required.every((r) => typeof r === 'string')))
    throw new Unsupported('required');
  if (properties !== undefined && !isObject(properties)) throw new Unsupported('properties');
  lines.push("if (v !== null && typeof v === 'object' && !Array.isArray(v)) {");
  for (const name of (required ?? []) as string[])
    lines.push(`if (v[${JSON.stringify(name)}] === undefined) return false;`);
  for (const [name, sub] of Object.entries(properties ?? {})) {
    if (sub === true) continue;
    const key = JSON.stringify(name);
    lines.push(`if (v[${key}] !== undefined && !${ref(compile(sub))}(v[${key}])) return false;`);
  }
  lines.push('}');
}

/** `contains`, `items`, `prefixItems`, `minItems`, `maxItems`: they apply to arrays only. */
function arrayCode(s: Schema, lines: string[], ref: (code: string) => string): void {
  const { contains, items, prefixItems, minItems, maxItems } = s;
  if ([contains, items, prefixItems, minItems, maxItems].every((k) => k === undefined)) return;
  for (const n of [minItems, maxItems])
    if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 0))
      throw new Unsupported('minItems/maxItems');
  lines.push('if (Array.isArray(v)) {');
  if (minItems !== undefined) lines.push(`if (v.length < ${minItems}) return false;`);
  if (maxItems !== undefined) lines.push(`if (v.length > ${maxItems}) return false;`);
  const prefix = prefixItems === undefined ? [] : list(prefixItems);
  prefix.forEach((sub, i) => {
    lines.push(`if (v.length > ${i} && !${ref(compile(sub))}(v[${i}])) return false;`);
  });
  if (items !== undefined) {
    lines.push(
      `for (let i = ${prefix.length}; i < v.length; i++) if (!${ref(compile(items))}(v[i])) return false;`,
    );
  }
  if (contains !== undefined) {
    const has = ref(compile(contains));
    lines.push(`let found = false;`);
    lines.push(`for (let i = 0; i < v.length; i++) if (${has}(v[i])) { found = true; break; }`);
    lines.push('if (!found) return false;');
  }
  lines.push('}');
}
