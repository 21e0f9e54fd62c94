// The OpenAPI 3.1 document, generated: every contract schema under components (refs rewritten from
// urn:tollgate:… to #/components/schemas/…), the HTTP wrappers from shapes.ts, and the routes.
import { type SchemaName, schemaNames, schemas } from '@tollgate/contracts';
import { openApiPaths } from './openapi-paths.js';
import { HTTP_PROBLEMS } from './problem.js';
import { httpShapes } from './shapes.js';

export const API_VERSION = '1.0.0';

const titles = new Map<string, string>(
  schemaNames.map((name) => [`urn:tollgate:${name}:v1`, (schemas[name] as { title: string }).title]),
);

export function openApiDocument(): Record<string, unknown> {
  const components: Record<string, unknown> = {};
  for (const name of schemaNames) {
    const { $id: _id, $schema: _schema, ...rest } = schemas[name as SchemaName] as Record<string, unknown>;
    const title = titles.get(`urn:tollgate:${name}:v1`) as string;
    components[title] = rewrite(rest, title);
  }
  for (const [name, shape] of Object.entries(httpShapes)) components[name] = rewrite(shape, name);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tollgate',
      version: API_VERSION,
      description:
        'A predict-or-decline gate for the irreversible tool calls of AI agents. Every shape comes from contracts/schemas. Errors are application/problem+json with a `code`.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: 'http://127.0.0.1:8787' }],
    security: [{ bearer: [] }, {}],
    paths: openApiPaths(),
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'A token from tollgate.config.yaml `tokens`; none needed when no tokens are configured (loopback only).',
        },
      },
      'x-problem-codes': Object.fromEntries(
        Object.entries(HTTP_PROBLEMS).map(([k, [status, m]]) => [k, { status, meaning: m }]),
      ),
    },
  };
}

function rewrite(node: unknown, owner: string): unknown {
  if (Array.isArray(node)) return node.map((n) => rewrite(n, owner));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === '$ref' && typeof value === 'string' ? rewriteRef(value, owner) : rewrite(value, owner);
  }
  return out;
}

function rewriteRef(ref: string, owner: string): string {
  if (ref.startsWith('#/')) return `#/components/schemas/${owner}/${ref.slice(2)}`;
  const [base = '', pointer = ''] = ref.split('#');
  const title = titles.get(base);
  if (!title) throw new Error(`openapi: unknown schema ref ${ref}`);
  return `#/components/schemas/${title}${pointer}`;
}
