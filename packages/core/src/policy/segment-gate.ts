// A necessary condition for a segment predicate that segment-programs.ts cannot pin to programs:
// the schema can match a segment only when its program is one of `programs` or one of `lists` is
// present and not an empty array. A required property whose schema has `contains` (no
// `minContains`) or `type: array` with `minItems` ≥ 1 cannot be met by an empty array; an `anyOf`
// is met by one of its branches, so their conditions are joined; a conjunct's (`allOf`, the node
// itself) condition holds for the whole. A required property of type object (a fact such as `sql` or
// `egress` that only some segments carry) is a list in this sense: absent, or an array, it fails.
// Rules such as "a redirection truncates a protected file, or
// tee writes one" then cost nothing on the many segments without redirections and of other programs.
type Schema = Record<string, unknown>;

export interface SegmentGate {
  programs: ReadonlySet<string>;
  lists: readonly string[];
}

export function segmentGate(schema: unknown): SegmentGate | undefined {
  const found = condition(schema, new Set());
  return found && { programs: found.programs, lists: [...found.lists] };
}

interface Condition {
  programs: Set<string>;
  lists: Set<string>;
}

function asSchema(value: unknown): Schema | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Schema) : undefined;
}

function requiredOf(s: Schema | undefined): string[] {
  return Array.isArray(s?.required) ? s.required.filter((r): r is string => typeof r === 'string') : [];
}

/** `inherited`: properties an enclosing conjunct requires (they hold in every branch below it). */
function condition(schema: unknown, inherited: ReadonlySet<string>): Condition | undefined {
  const s = asSchema(schema);
  if (!s) return undefined;
  const members = Array.isArray(s.allOf) ? s.allOf.map(asSchema) : [];
  const required = new Set([...inherited, ...requiredOf(s), ...members.flatMap(requiredOf)]);
  const own = ownCondition(s, required);
  if (own) return own;
  for (const member of members) {
    const found = member && condition(member, required);
    if (found) return found;
  }
  if (!Array.isArray(s.anyOf) || s.anyOf.length === 0) return undefined;
  const union: Condition = { programs: new Set(), lists: new Set() };
  for (const branch of s.anyOf) {
    const found = condition(branch, required);
    if (!found) return undefined;
    for (const p of found.programs) union.programs.add(p);
    for (const l of found.lists) union.lists.add(l);
  }
  return union;
}

/** The node's own restriction: its required program pinned by const/enum, else a required list it needs non-empty. */
function ownCondition(s: Schema, required: ReadonlySet<string>): Condition | undefined {
  const properties = asSchema(s.properties);
  // Pinned only where program is required: `properties` alone says nothing of a segment without one.
  const program = required.has('program') ? asSchema(properties?.program) : undefined;
  if (typeof program?.const === 'string') return { programs: new Set([program.const]), lists: new Set() };
  if (Array.isArray(program?.enum) && program.enum.every((p) => typeof p === 'string'))
    return { programs: new Set(program.enum as string[]), lists: new Set() };
  for (const name of required) {
    const p = asSchema(properties?.[name]);
    if (!p || p.minContains !== undefined) continue;
    // A fact present only where it applies (`sql`, `egress`): an object, which no array matches.
    const nonEmpty =
      p.contains !== undefined ||
      (p.type === 'array' && typeof p.minItems === 'number' && p.minItems >= 1) ||
      p.type === 'object';
    if (nonEmpty) return { programs: new Set(), lists: new Set([name]) };
  }
  return undefined;
}
