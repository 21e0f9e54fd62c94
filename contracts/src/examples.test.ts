// Every example document under contracts/examples: valid ones must validate, invalid ones must be rejected
// with a problem at the JSON pointer the file names in `expect_path`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type SchemaName, schemaNames } from './schemas.js';
import { validate } from './validate.js';

const examplesDir = fileURLToPath(new URL('../examples', import.meta.url));
const MIN_PER_SCHEMA = 3;

interface Example {
  file: string;
  schema: string;
  doc: unknown;
}

function load(kind: 'valid' | 'invalid'): Example[] {
  const dir = join(examplesDir, kind);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      schema: file.slice(0, file.indexOf('.')),
      doc: JSON.parse(readFileSync(join(dir, file), 'utf8')) as unknown,
    }));
}

const known = new Set<string>(schemaNames);
const isSchemaName = (name: string): name is SchemaName => known.has(name);

const validExamples = load('valid');
const invalidExamples = load('invalid');

function schemaOf(example: Example): SchemaName {
  if (!isSchemaName(example.schema)) throw new Error(`${example.file}: unknown schema "${example.schema}"`);
  return example.schema;
}

describe('example file names', () => {
  it.each([...validExamples, ...invalidExamples].map((e) => [e.file, e.schema]))(
    '%s is named <schema>.<case>.json with a known schema',
    (file, schema) => {
      expect(file).toMatch(/^[a-z-]+\.[a-z0-9-]+\.json$/);
      expect(schemaNames).toContain(schema);
    },
  );

  it.each(schemaNames.map((name) => [name]))(
    `%s has at least ${MIN_PER_SCHEMA} valid and invalid examples`,
    (name) => {
      expect(validExamples.filter((e) => e.schema === name).length).toBeGreaterThanOrEqual(MIN_PER_SCHEMA);
      expect(invalidExamples.filter((e) => e.schema === name).length).toBeGreaterThanOrEqual(MIN_PER_SCHEMA);
    },
  );
});

describe('valid examples', () => {
  it.each(validExamples.map((e) => [e.file, e]))('%s validates', (_file, example) => {
    const result = validate(schemaOf(example), example.doc);
    expect(result.valid ? [] : result.problems).toEqual([]);
    expect(result.valid).toBe(true);
  });
});

describe('invalid examples', () => {
  it.each(invalidExamples.map((e) => [e.file, e]))('%s is rejected at its expect_path', (_file, example) => {
    const wrapper = example.doc as { expect_path?: unknown; document?: unknown };
    expect(Object.keys(wrapper).sort()).toEqual(['document', 'expect_path']);
    expect(typeof wrapper.expect_path).toBe('string');
    const result = validate(schemaOf(example), wrapper.document);
    expect(result.valid).toBe(false);
    if (result.valid) return;
    expect(result.problems.map((p) => p.path)).toContain(wrapper.expect_path);
    for (const problem of result.problems) expect(problem.message.length).toBeGreaterThan(0);
  });
});
