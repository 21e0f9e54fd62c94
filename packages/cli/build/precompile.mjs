// Build-time compilation, so a CLI process loads neither ajv nor yaml on its hot paths:
// every contract schema as ajv standalone code, and the shipped catalogues (contracts/policies/*.yaml)
// parsed, validated and with each argument predicate compiled to standalone code.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONTRACT_AJV_OPTIONS, DATE_TIME } from '@tollgate/contracts';
import { fastPredicateSource, PREDICATE_AJV_OPTIONS, predicateSites } from '@tollgate/core';
import { Ajv2020 } from 'ajv/dist/2020.js';
import standalone from 'ajv/dist/standalone/index.js';
import { parse as parseYaml } from 'yaml';

const standaloneCode = standalone.default;
// The options come from the packages that compile at runtime, so precompiled code answers the same.
const CONTRACT_OPTIONS = CONTRACT_AJV_OPTIONS;
const PREDICATE_OPTIONS = PREDICATE_AJV_OPTIONS;

export function contractSchemas(contractsDir) {
  const dir = join(contractsDir, 'schemas');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
}

/** ESM source exporting `byId`: schema $id → compiled validate function. */
export function contractValidatorsModule(contractsDir) {
  const ajv = new Ajv2020({ ...CONTRACT_OPTIONS, code: { source: true, esm: true } });
  ajv.addFormat('date-time', DATE_TIME);
  const refs = {};
  const table = [];
  for (const [i, schema] of contractSchemas(contractsDir).entries()) {
    ajv.addSchema(schema);
    refs[`v${i}`] = schema.$id;
    table.push(`${JSON.stringify(schema.$id)}: v${i}`);
  }
  return `${standaloneCode(ajv, refs)}\nexport const byId = {${table.join(', ')}};\n`;
}

/** The shipped catalogues, parsed and validated against the policy schema. */
export function builtinPolicies(contractsDir) {
  const validator = new Ajv2020(CONTRACT_OPTIONS);
  validator.addFormat('date-time', DATE_TIME);
  for (const schema of contractSchemas(contractsDir)) validator.addSchema(schema);
  const check = validator.getSchema('urn:tollgate:policy:v1');
  const dir = join(contractsDir, 'policies');
  const out = [];
  for (const file of readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    const doc = parseYaml(readFileSync(join(dir, file), 'utf8'));
    // Data files that sit beside the catalogues (corpus exceptions, ...) are not rule files.
    if (doc === null || typeof doc !== 'object' || !('rules' in doc)) continue;
    if (!check(doc)) throw new Error(`${file}: ${validator.errorsText(check.errors)}`);
    out.push({ name: `builtin:${file.replace(/\.yaml$/, '')}`, file, doc });
  }
  return out;
}

/**
 * ESM source for src/precompiled.ts: the parsed catalogues, and their predicates as code. ajv compiles
 * (and so checks) every predicate here; one within the subset fast-predicate.ts handles is written as
 * its fast form (`fast`), which answers as ajv does without ajv's error objects and is a tenth of
 * ajv's standalone code; any other is ajv's standalone code (`predicates`).
 */
export function precompiledModule(policies) {
  const ajv = new Ajv2020({ ...PREDICATE_OPTIONS, code: { source: true, esm: true } });
  const checker = new Ajv2020(PREDICATE_OPTIONS);
  const refs = {};
  const table = [];
  const fast = [];
  let n = 0;
  for (const { name, doc } of policies) {
    for (const [index, rule] of doc.rules.entries()) {
      if (rule.enabled === false) continue;
      for (const { key, schema, data } of predicateSites(rule, index)) {
        // A precondition's latest_output ($data, OUTPUT_AJV_OPTIONS) is left to the runtime compiler,
        // which uses those options: one standalone module holds one option set.
        if (data) continue;
        const site = JSON.stringify(`${name}#${rule.id}/${key}`);
        const source = fastPredicateSource(schema);
        if (source !== undefined) {
          checker.compile(structuredClone(schema));
          fast.push(`${site}: ${source}`);
          continue;
        }
        const id = `p${n++}`;
        // A clone: YAML aliases share one object, and ajv would emit its standalone code twice.
        ajv.addSchema(structuredClone(schema), id);
        refs[id] = id;
        table.push(`${site}: wrap(${id})`);
      }
    }
  }
  const code = n > 0 ? standaloneCode(ajv, refs) : '';
  // JSON.parse of a string literal is much faster for V8 to load than the same object literal.
  const docs = policies.map(
    ({ name, doc }) => `${JSON.stringify(name)}: JSON.parse(${JSON.stringify(JSON.stringify(doc))})`,
  );
  return `${code}
const wrap = (fn) => (value) => fn(value) === true;
export const precompiled = {
  policies: {${docs.join(', ')}},
  predicates: {${table.join(',\n')}},
  fast: {${fast.join(',\n')}},
};
`;
}
