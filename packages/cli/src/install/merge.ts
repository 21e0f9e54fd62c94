// Putting Tollgate's hook entries into a host's config document and taking them out again, keeping
// every other key, event, group and hook. Tollgate's entries are the ones whose command parses as a
// Tollgate hook command (hook-command.ts), whatever node, path or pin an older install used.
import { type InstalledCommand, parseHookCommand } from './hook-command.js';
import type { HostSpec } from './hosts.js';
import { HostConfigFault, type Json } from './json-file.js';

export interface FoundEntry {
  event: string;
  entry: Json;
  command: InstalledCommand;
}

/** Tollgate's entries in the document, per event, in file order. */
export function ourEntries(doc: Json, spec: HostSpec, file: string): FoundEntry[] {
  const found: FoundEntry[] = [];
  for (const [event, list] of Object.entries(hooksOf(doc, file) ?? {})) {
    if (!Array.isArray(list)) continue;
    for (const item of list)
      for (const entry of entriesOf(item, spec)) {
        const command = parseHookCommand(entry[spec.commandField]);
        if (command) found.push({ event, entry, command });
      }
  }
  return found;
}

/** A copy of the document without Tollgate's entries; groups and events left empty by that are dropped. */
export function stripOurs(doc: Json, spec: HostSpec, file: string): { doc: Json; removed: number } {
  const out = structuredClone(doc);
  const hooks = hooksOf(out, file);
  if (!hooks) return { doc: out, removed: 0 };
  let removed = 0;
  for (const [event, list] of Object.entries(hooks)) {
    // Not an event list (Gemini CLI's older hooks.enabled, say): not Tollgate's, left alone.
    if (!Array.isArray(list)) continue;
    const before = removed;
    const kept: unknown[] = [];
    for (const item of list) {
      if (spec.shape === 'flat') {
        if (isObject(item) && parseHookCommand(item[spec.commandField])) removed++;
        else kept.push(item);
        continue;
      }
      if (!isObject(item) || !Array.isArray(item.hooks)) {
        kept.push(item);
        continue;
      }
      const inner = (item.hooks as unknown[]).filter(
        (h) => !(isObject(h) && parseHookCommand(h[spec.commandField])),
      );
      if (inner.length === item.hooks.length) kept.push(item);
      else {
        removed += item.hooks.length - inner.length;
        if (inner.length > 0) kept.push({ ...item, hooks: inner });
      }
    }
    if (removed > before && kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (removed > 0 && Object.keys(hooks).length === 0) delete out.hooks;
  return { doc: out, removed };
}

/** The document with Tollgate's entries (for `command`) in place of any earlier ones. */
export function mergeOurs(doc: Json, spec: HostSpec, command: string, file: string): Json {
  const { doc: out } = stripOurs(doc, spec, file);
  for (const [key, value] of Object.entries(spec.required)) if (!(key in out)) out[key] = value;
  out.hooks ??= {};
  const hooks = hooksOf(out, file) as Json;
  for (const [event, entry] of Object.entries(spec.entries(command))) {
    hooks[event] ??= [];
    const list = hooks[event];
    if (!Array.isArray(list)) throw new HostConfigFault(file, `hooks.${event} is not an array`);
    list.push(entry);
  }
  return out;
}

function hooksOf(doc: Json, file: string): Json | undefined {
  const hooks = doc.hooks;
  if (hooks === undefined) return undefined;
  if (!isObject(hooks)) throw new HostConfigFault(file, '"hooks" is not an object');
  return hooks;
}

function entriesOf(item: unknown, spec: HostSpec): Json[] {
  if (!isObject(item)) return [];
  if (spec.shape === 'flat') return [item];
  return Array.isArray(item.hooks) ? (item.hooks as unknown[]).filter(isObject) : [];
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
