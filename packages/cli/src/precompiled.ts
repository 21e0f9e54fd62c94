// What the build step compiles ahead of time: the shipped policy catalogues as parsed documents and
// their argument predicates as code (fast forms, or ajv standalone functions outside their subset). In the source tree (tests, tsx) this module
// is empty and the gate parses and compiles at start-up; build/build.mjs replaces it in the bundle.

export interface Precompiled {
  /** Parsed documents of the shipped catalogues, by `builtin:NAME`. */
  policies: Record<string, unknown>;
  /** ajv's standalone predicates by `builtin:NAME#rule.id/key`, for schemas without a fast form. */
  predicates: Record<string, (value: unknown) => boolean>;
  /** Fast forms (core's fastPredicateSource) by `builtin:NAME#rule.id/key`. */
  fast: Record<string, (value: unknown) => boolean>;
}

export const precompiled: Precompiled = { policies: {}, predicates: {}, fast: {} };
