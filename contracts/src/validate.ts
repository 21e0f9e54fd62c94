// One ajv instance over all contract schemas. Validators compile lazily, once, and return a
// discriminated result instead of throwing.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { type SchemaName, schemas } from './schemas.js';

export interface SchemaProblem {
  /** JSON pointer into the document, "" for the root. */
  path: string;
  message: string;
}

export type Validation<T> = { valid: true; data: T } | { valid: false; problems: SchemaProblem[] };

// RFC 3339 date-time; the only format the contracts use.
export const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** How every contract validator is compiled, here and in the CLI's build-time precompilation. */
export const CONTRACT_AJV_OPTIONS = {
  allErrors: true,
  strict: true,
  strictRequired: false,
  allowUnionTypes: true,
} as const;

let ajv: Ajv2020 | undefined;
const compiled = new Map<SchemaName, ValidateFunction>();

/** The shared ajv instance with every contract schema registered (for compiling rule predicates too). */
export function contractAjv(): Ajv2020 {
  if (!ajv) {
    ajv = new Ajv2020(CONTRACT_AJV_OPTIONS);
    ajv.addFormat('date-time', DATE_TIME);
    for (const schema of Object.values(schemas)) ajv.addSchema(schema);
  }
  return ajv;
}

export function validatorFor(name: SchemaName): ValidateFunction {
  let fn = compiled.get(name);
  if (!fn) {
    const id = schemas[name].$id;
    fn = contractAjv().getSchema(id);
    if (!fn) throw new Error(`schema ${id} is not registered`);
    compiled.set(name, fn);
  }
  return fn;
}

export function validate<T>(name: SchemaName, doc: unknown): Validation<T> {
  const fn = validatorFor(name);
  if (fn(doc)) return { valid: true, data: doc as T };
  return { valid: false, problems: describeErrors(fn.errors ?? []) };
}

// ajv reports every branch of oneOf/anyOf/if-then; keep the errors that name a concrete problem.
const NOISE = new Set(['if', 'oneOf', 'anyOf', 'allOf']);

export function describeErrors(errors: readonly ErrorObject[]): SchemaProblem[] {
  const concrete = errors.filter((e) => !NOISE.has(e.keyword));
  const chosen = concrete.length > 0 ? concrete : errors;
  const seen = new Set<string>();
  const problems: SchemaProblem[] = [];
  for (const e of chosen) {
    const problem = { path: pathOf(e), message: messageOf(e) };
    const key = `${problem.path}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}

function pathOf(e: ErrorObject): string {
  if (e.keyword === 'required') return `${e.instancePath}/${String(e.params.missingProperty)}`;
  if (e.keyword === 'additionalProperties') return `${e.instancePath}/${String(e.params.additionalProperty)}`;
  return e.instancePath;
}

function messageOf(e: ErrorObject): string {
  const at = e.instancePath === '' ? 'the document' : e.instancePath;
  switch (e.keyword) {
    case 'required':
      return `${at} is missing the required field "${String(e.params.missingProperty)}"`;
    case 'additionalProperties':
      return `${at} has an unknown field "${String(e.params.additionalProperty)}"`;
    case 'enum':
      return `${at} must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${at} must be ${JSON.stringify(e.params.allowedValue)}`;
    case 'type':
      return `${at} must be of type ${String(e.params.type)}`;
    default:
      return `${at} ${e.message ?? 'is invalid'}`;
  }
}
