// Tables keyed by words of the call (programs, subcommands, tool names) are plain objects: a word
// that names an inherited property (constructor, toString, __proto__) must find nothing, never
// Object.prototype's function.

/** The table's own entry for `key`, or undefined. */
export function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
