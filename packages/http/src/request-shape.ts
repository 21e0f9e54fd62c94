// Checks a request body against its wrapper shape, one level deep: refs to contract documents are
// left to core, which validates them itself and audits what it refuses.
import { contractAjv, describeErrors, type SchemaProblem } from '@tollgate/contracts';
import { type HttpShapeName, httpShapes } from './shapes.js';

export type ShapeCheck<T> = { ok: true; value: T } | { ok: false; problems: SchemaProblem[] };

type Validator = ReturnType<ReturnType<typeof contractAjv>['compile']>;

const compiled = new Map<HttpShapeName, Validator>();

export function checkShape<T>(name: HttpShapeName, value: unknown): ShapeCheck<T> {
  let fn = compiled.get(name);
  if (!fn) {
    fn = contractAjv().compile(shallow(httpShapes[name]));
    compiled.set(name, fn);
  }
  if (fn(value)) return { ok: true, value: value as T };
  return { ok: false, problems: describeErrors(fn.errors ?? []) };
}

function shallow(schema: object): object {
  const { properties, ...rest } = schema as { properties?: Record<string, object> };
  if (!properties) return rest;
  const loose: Record<string, object> = {};
  for (const [key, sub] of Object.entries(properties)) loose[key] = '$ref' in sub ? {} : sub;
  return { ...rest, properties: loose };
}
