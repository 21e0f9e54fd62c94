// Rule predicates as plain boolean closures, for the subset of JSON Schema the catalogues use (type,
// properties, required, enum and const of primitives, pattern, contains, items, prefixItems,
// minItems, maxItems, allOf, anyOf, oneOf, not, annotations). ajv's validators build an error
// object for every failing keyword, and most predicates fail on most segments: that was a third of
// what classification allocated. A schema with any other keyword gets no fast form (undefined), and
// ajv's validator is used. The schema is always compiled (and so checked) by ajv first: this only
// replaces how an accepted schema is evaluated, with the same meaning (fast-predicate.test.ts
// compares the two over the shipped catalogues).
import type { Predicate } from './types.js';

type Check = (value: unknown) => boolean;
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

/** A boolean closure with the meaning ajv gives the schema, or undefined outside the subset. */
export function fastPredicate(schema: unknown): Predicate | undefined {
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

function compile(schema: unknown): Check {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (!isObject(schema)) throw new Unsupported('not a schema');
  const checks: Check[] = [];
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key)) throw new Unsupported(key);
  }
  const s = schema as Schema;
  if (s.type !== undefined) checks.push(typeCheck(s.type));
  const objectChecks = objectKeywords(s);
  if (objectChecks) checks.push(objectChecks);
  const arrayChecks = arrayKeywords(s);
  if (arrayChecks) checks.push(arrayChecks);
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string') throw new Unsupported('pattern');
    const re = new RegExp(s.pattern, 'u');
    checks.push((v) => typeof v !== 'string' || re.test(v));
  }
  if (s.enum !== undefined) {
    if (!Array.isArray(s.enum) || !s.enum.every(isPrimitive)) throw new Unsupported('enum');
    const values = s.enum as unknown[];
    if (values.every((v) => typeof v === 'string')) {
      const set = new Set(values as string[]);
      checks.push((v) => typeof v === 'string' && set.has(v));
    } else checks.push((v) => values.some((x) => x === v));
  }
  if (s.const !== undefined) {
    if (!isPrimitive(s.const)) throw new Unsupported('const');
    const c = s.const;
    checks.push((v) => v === c);
  }
  if (s.allOf !== undefined) {
    const parts = list(s.allOf).map(compile);
    checks.push((v) => {
      for (const p of parts) if (!p(v)) return false;
      return true;
    });
  }
  if (s.anyOf !== undefined) {
    const parts = list(s.anyOf).map(compile);
    checks.push((v) => {
      for (const p of parts) if (p(v)) return true;
      return false;
    });
  }
  if (s.oneOf !== undefined) {
    const parts = list(s.oneOf).map(compile);
    checks.push((v) => {
      let n = 0;
      for (const p of parts) if (p(v) && ++n > 1) return false;
      return n === 1;
    });
  }
  if (s.not !== undefined) {
    const inner = compile(s.not);
    checks.push((v) => !inner(v));
  }
  return all(checks);
}

function list(value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw new Unsupported('schema list');
  return value;
}

function all(checks: Check[]): Check {
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0] as Check;
  return (v) => {
    for (let i = 0; i < checks.length; i++) if (!(checks[i] as Check)(v)) return false;
    return true;
  };
}

function typeCheck(type: unknown): Check {
  const types = Array.isArray(type) ? type : [type];
  const one = types.map((t): Check => {
    switch (t) {
      case 'string':
        return (v) => typeof v === 'string';
      case 'boolean':
        return (v) => typeof v === 'boolean';
      case 'null':
        return (v) => v === null;
      case 'number':
        return (v) => typeof v === 'number' && Number.isFinite(v);
      case 'integer':
        return (v) => typeof v === 'number' && Number.isInteger(v);
      case 'array':
        return (v) => Array.isArray(v);
      case 'object':
        return isObject;
      default:
        throw new Unsupported(`type ${String(t)}`);
    }
  });
  if (one.length === 1) return one[0] as Check;
  return (v) => one.some((c) => c(v));
}

/** `required` and `properties`: they apply to objects only (anything else passes them). */
function objectKeywords(s: Schema): Check | undefined {
  const required = s.required;
  const properties = s.properties;
  if (required === undefined && properties === undefined) return undefined;
  if (required !== undefined && (!Array.isArray(required) || !required.every((r) => typeof r === 'string')))
    throw new Unsupported('required');
  if (properties !== undefined && !isObject(properties)) throw new Unsupported('properties');
  const names = (required ?? []) as string[];
  const props = Object.entries(properties ?? {}).map(([k, sub]) => [k, compile(sub)] as const);
  return (v) => {
    if (!isObject(v)) return true;
    for (let i = 0; i < names.length; i++) if (v[names[i] as string] === undefined) return false;
    for (let i = 0; i < props.length; i++) {
      const [k, check] = props[i] as readonly [string, Check];
      const value = v[k];
      if (value !== undefined && !check(value)) return false;
    }
    return true;
  };
}

/** `contains`, `items`, `prefixItems`, `minItems`, `maxItems`: they apply to arrays only. */
function arrayKeywords(s: Schema): Check | undefined {
  const { contains, items, prefixItems, minItems, maxItems } = s;
  if ([contains, items, prefixItems, minItems, maxItems].every((k) => k === undefined)) return undefined;
  for (const n of [minItems, maxItems])
    if (n !== undefined && !(typeof n === 'number' && Number.isInteger(n) && n >= 0))
      throw new Unsupported('minItems/maxItems');
  const min = (minItems as number | undefined) ?? 0;
  const max = (maxItems as number | undefined) ?? Number.POSITIVE_INFINITY;
  const has = contains === undefined ? undefined : compile(contains);
  const prefix = prefixItems === undefined ? [] : list(prefixItems).map(compile);
  const rest = items === undefined ? undefined : compile(items);
  return (v) => {
    if (!Array.isArray(v)) return true;
    if (v.length < min || v.length > max) return false;
    for (let i = 0; i < prefix.length && i < v.length; i++) if (!(prefix[i] as Check)(v[i])) return false;
    if (rest !== undefined) for (let i = prefix.length; i < v.length; i++) if (!rest(v[i])) return false;
    if (has !== undefined) {
      let found = false;
      for (let i = 0; i < v.length; i++)
        if (has(v[i])) {
          found = true;
          break;
        }
      if (!found) return false;
    }
    return true;
  };
}
