// What the build step compiles ahead of time: the shipped policy catalogues as parsed documents and
// their argument predicates as ajv standalone functions. In the source tree (tests, tsx) this module
// is empty and the gate parses and compiles at start-up; build/build.mjs replaces it in the bundle.

export interface Precompiled {
  /** Parsed documents of the shipped catalogues, by `builtin:NAME`. */
  policies: Record<string, unknown>;
  /** Compiled predicates by `builtin:NAME#rule.id/key`. */
  predicates: Record<string, (value: unknown) => boolean>;
}

export const precompiled: Precompiled = { policies: {}, predicates: {} };
