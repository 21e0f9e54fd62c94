// Compiled predicates of a user rule file, cached on disk by the file's content hash: the first
// process compiles them with ajv and writes standalone code; later processes load that code and
// never load ajv. A cache that cannot be read or written is skipped, never trusted half-way.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import {
  OUTPUT_AJV_OPTIONS,
  type PolicySource,
  PREDICATE_AJV_OPTIONS,
  type PredicateSource,
  parsePolicyText,
  predicateSites,
  sha256Hex,
} from '@tollgate/core';

const require = createRequire(import.meta.url);
// Bump when the generated code's shape or ajv options change.
const FORMAT = 'v3';

type Compiled = Record<string, (value: unknown) => boolean>;

export function cachedPredicates(source: PolicySource, dir: string): PredicateSource | undefined {
  const hash = sha256Hex(`${FORMAT}\n${source.text}`);
  const file = join(dir, `predicates-${hash.slice(0, 32)}.cjs`);
  let compiled = load(file);
  if (!compiled) {
    compiled = generate(source, file);
    if (!compiled) return undefined;
  }
  const table = compiled;
  return (_schema, site) => table[`${site.rule}/${site.key}`];
}

function load(file: string): Compiled | undefined {
  let code: string;
  try {
    code = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    const module = { exports: {} as Compiled };
    new Function('module', 'exports', 'require', code)(module, module.exports, require);
    return module.exports;
  } catch {
    return undefined;
  }
}

function generate(source: PolicySource, file: string): Compiled | undefined {
  let doc: ReturnType<typeof parsePolicyText>;
  try {
    doc = parsePolicyText(source);
  } catch {
    return undefined; // core reports the problem when it compiles the same text
  }
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const standalone = require('ajv/dist/standalone/index.js').default as (
    ajv: InstanceType<typeof Ajv2020>,
    refs: Record<string, string>,
  ) => string;
  // The same options core's compiler uses, so a cached predicate answers exactly as a fresh one:
  // match predicates with PREDICATE_AJV_OPTIONS, preconditions' latest_output schemas with
  // OUTPUT_AJV_OPTIONS ($data), each set as its own standalone module in one file.
  const sets = [
    {
      ajv: new Ajv2020({ ...PREDICATE_AJV_OPTIONS, code: { source: true } }),
      refs: {} as Record<string, string>,
    },
    {
      ajv: new Ajv2020({ ...OUTPUT_AJV_OPTIONS, code: { source: true } }),
      refs: {} as Record<string, string>,
    },
  ] as const;
  try {
    for (const [index, rule] of doc.rules.entries()) {
      for (const { key, schema, data } of predicateSites(rule, index)) {
        const id = `${rule.id}/${key}`;
        const set = sets[data ? 1 : 0];
        // A clone: YAML aliases share one object, and ajv would emit its standalone code twice.
        set.ajv.addSchema(structuredClone(schema) as object, id);
        set.refs[id] = id;
      }
    }
    // Each standalone module in its own function scope (their helper names would collide).
    const modules = sets
      .filter((s) => Object.keys(s.refs).length > 0)
      .map(
        (s) =>
          `(function () { const module = { exports: {} }; const exports = module.exports;\n${standalone(s.ajv, s.refs)}\nreturn module.exports; })()`,
      );
    const code = `module.exports = Object.assign({}, ${modules.join(', ')});\n`;
    mkdirSync(join(file, '..'), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  } catch {
    return undefined; // core compiles (and reports errors for) the rule itself
  }
  return load(file);
}
