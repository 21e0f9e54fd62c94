// Loading the policy for a process: shipped catalogues come precompiled from the bundle (no YAML
// parse, no ajv), user rule files are read and compiled by core, with their compiled predicates
// cached on disk by content hash (predicate-cache.ts).
import {
  compilePolicy,
  fastForm,
  type Policy,
  type PolicySource,
  type PredicateSource,
  readPolicySource,
} from '@tollgate/core';
import { precompiled } from './precompiled.js';
import { cachedPredicates } from './predicate-cache.js';

// Policies made only of shipped catalogues, by file list: they depend on nothing but the bundle, so
// one compiled while a hook's start-up snapshot is built (hook-entry.ts warmHook) is reused.
const shipped = new Map<string, Policy>();

/**
 * `texts`: user rule files' accepted text by listed path (runtime.ts, while a config change waits
 * for a person), read in place of the files on disk.
 */
export function loadPolicyFor(
  files: readonly string[],
  cacheDir: string | undefined,
  texts?: ReadonlyMap<string, string>,
): Policy {
  const key = files.join('\n');
  const known = shipped.get(key);
  if (known !== undefined) return known;
  const policy = compileFor(files, cacheDir, texts);
  if (files.every((file) => precompiled.policies[file] !== undefined)) shipped.set(key, policy);
  return policy;
}

/** A user rule file's source: its accepted text when one is given, else the file. */
export function ruleSource(file: string, texts: ReadonlyMap<string, string> | undefined): PolicySource {
  const text = texts?.get(file);
  return text !== undefined ? { file, text } : readPolicySource(file);
}

function compileFor(
  files: readonly string[],
  cacheDir: string | undefined,
  texts: ReadonlyMap<string, string> | undefined,
): Policy {
  const sources: PolicySource[] = [];
  const sourcesByFile = new Map<string, PredicateSource>();
  for (const file of files) {
    const doc = precompiled.policies[file];
    if (doc !== undefined) {
      // Checked against the policy schema by the build (build/precompile.mjs builtinPolicies).
      sources.push({ file, text: '', doc, validated: true });
      continue;
    }
    const source = ruleSource(file, texts);
    sources.push(source);
    if (cacheDir !== undefined) {
      const cached = cachedPredicates(source, cacheDir);
      if (cached) sourcesByFile.set(file, cached);
    }
  }
  return compilePolicy(sources, {
    predicates: (schema, site) => {
      const key = `${site.file}#${site.rule}/${site.key}`;
      const fast = precompiled.fast[key];
      if (fast !== undefined) return fastForm(fast);
      return precompiled.predicates[key] ?? sourcesByFile.get(site.file)?.(schema, site);
    },
  });
}
