// Which programs a segment predicate can match at all, read from its JSON Schema. When the schema
// requires `program` (at its top level or in an `allOf` member) and some conjunct restricts it —
// `properties.program` with `const`/`enum`, or an `anyOf` every branch of which does — only
// segments running one of those programs can match. Classification skips the predicate for every
// other segment, so most of the catalogue costs a set lookup per segment.
type Schema = Record<string, unknown>;

export function segmentPrograms(schema: unknown): ReadonlySet<string> | undefined {
  for (const c of programConjuncts(schema)) {
    const found = restriction(c, pinned, (sets) => new Set(sets.flatMap((set) => [...set])));
    if (found) return found;
  }
  return undefined;
}

/** The conjuncts (the node and its allOf members) of a schema that requires `program`; none otherwise. */
function programConjuncts(schema: unknown): Schema[] {
  const s = asSchema(schema);
  if (!s || !requiresProgram(s)) return [];
  return [s, ...(Array.isArray(s.allOf) ? s.allOf.map(asSchema) : [])].filter(
    (c): c is Schema => c !== undefined,
  );
}

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function requiresProgram(s: Schema): boolean {
  const own = (x: Schema | undefined) => Array.isArray(x?.required) && x.required.includes('program');
  return own(s) || (Array.isArray(s.allOf) && s.allOf.some((m) => own(asSchema(m))));
}

/**
 * What one conjunct says of `program` (`leaf` reads a program schema), directly or in every anyOf
 * branch (their findings joined); undefined when it says nothing.
 */
function restriction<T>(
  s: Schema,
  leaf: (program: Schema | undefined) => T | undefined,
  join: (parts: T[]) => T,
): T | undefined {
  const direct = leaf(asSchema(asSchema(s.properties)?.program));
  if (direct !== undefined) return direct;
  if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return undefined;
  const parts: T[] = [];
  for (const branch of s.anyOf) {
    const b = asSchema(branch);
    const found = b && restriction(b, leaf, join);
    if (found === undefined) return undefined;
    parts.push(found);
  }
  return join(parts);
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
  const tests = programConjuncts(schema)
    .map((c) => restriction(c, programTest, (branches) => (p: string) => branches.some((t) => t(p))))
    .filter((t): t is (p: string) => boolean => t !== undefined);
  if (tests.length === 0) return undefined;
  return (program) => tests.every((t) => t(program));
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
