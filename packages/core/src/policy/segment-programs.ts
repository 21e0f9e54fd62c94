// Which programs a segment predicate can match at all, read from its JSON Schema. When the schema
// requires `program` (at its top level or in an `allOf` member) and some conjunct restricts it —
// `properties.program` with `const`/`enum`, or an `anyOf` every branch of which does — only
// segments running one of those programs can match. Classification skips the predicate for every
// other segment, so most of the catalogue costs a set lookup per segment.
type Schema = Record<string, unknown>;

export function segmentPrograms(schema: unknown): ReadonlySet<string> | undefined {
  const s = asSchema(schema);
  if (!s || !requiresProgram(s)) return undefined;
  const conjuncts = [s, ...(Array.isArray(s.allOf) ? s.allOf.map(asSchema) : [])];
  for (const c of conjuncts) {
    const found = c && restriction(c);
    if (found) return found;
  }
  return undefined;
}

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function requiresProgram(s: Schema): boolean {
  const own = (x: Schema | undefined) => Array.isArray(x?.required) && x.required.includes('program');
  return own(s) || (Array.isArray(s.allOf) && s.allOf.some((m) => own(asSchema(m))));
}

/** The programs one conjunct allows, when it restricts `program` (directly or in every anyOf branch). */
function restriction(s: Schema): Set<string> | undefined {
  const direct = pinned(asSchema(asSchema(s.properties)?.program));
  if (direct) return direct;
  if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return undefined;
  const union = new Set<string>();
  for (const branch of s.anyOf) {
    const b = asSchema(branch);
    const found = b && restriction(b);
    if (!found) return undefined;
    for (const p of found) union.add(p);
  }
  return union;
}

function pinned(program: Schema | undefined): Set<string> | undefined {
  if (!program) return undefined;
  if (typeof program.const === 'string') return new Set([program.const]);
  if (Array.isArray(program.enum) && program.enum.every((p) => typeof p === 'string'))
    return new Set(program.enum as string[]);
  return undefined;
}

/**
 * Where no program list can be read, a test on the program that every matching segment passes: the
 * same reading with patterns as well — `properties.program.pattern`, or `not: { pattern }` (a
 * program outside a list: cloud.destroying-verb's local tools) — joined over `anyOf` branches.
 * Undefined when some branch could match any program.
 */
export function segmentProgramTest(schema: unknown): ((program: string) => boolean) | undefined {
  const s = asSchema(schema);
  if (!s || !requiresProgram(s)) return undefined;
  const conjuncts = [s, ...(Array.isArray(s.allOf) ? s.allOf.map(asSchema) : [])];
  const tests = conjuncts
    .map((c) => c && testOf(c))
    .filter((t): t is (p: string) => boolean => t !== undefined);
  if (tests.length === 0) return undefined;
  return (program) => tests.every((t) => t(program));
}

/** The program test one conjunct makes, directly or in every anyOf branch. */
function testOf(s: Schema): ((program: string) => boolean) | undefined {
  const direct = programTest(asSchema(asSchema(s.properties)?.program));
  if (direct) return direct;
  if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return undefined;
  const branches: Array<(p: string) => boolean> = [];
  for (const branch of s.anyOf) {
    const b = asSchema(branch);
    const found = b && testOf(b);
    if (!found) return undefined;
    branches.push(found);
  }
  return (program) => branches.some((t) => t(program));
}

function programTest(program: Schema | undefined): ((p: string) => boolean) | undefined {
  if (!program) return undefined;
  const set = pinned(program);
  if (set) return (p) => set.has(p);
  if (typeof program.pattern === 'string') {
    const re = new RegExp(program.pattern, 'u');
    return (p) => re.test(p);
  }
  const not = asSchema(program.not);
  if (
    not &&
    typeof not.pattern === 'string' &&
    Object.keys(not).every((k) => k === 'pattern' || k === 'type')
  ) {
    const re = new RegExp(not.pattern, 'u');
    return (p) => !re.test(p);
  }
  return undefined;
}
