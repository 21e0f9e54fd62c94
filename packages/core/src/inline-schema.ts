// Self-contained copies of the contract schemas: every $ref (urn:tollgate:… or #/…) replaced by what
// it names, and $schema/$id/$defs dropped, so a schema can sit inside a tool's inputSchema and be read
// by MCP clients and models that resolve no references.
import { schemas } from '@tollgate/contracts';

type Node = Record<string, unknown>;

const byId = new Map<string, Node>(Object.values(schemas).map((s) => [s.$id, s as Node]));
const DROPPED = new Set(['$schema', '$id', '$defs', 'definitions']);
// The contracts hold no recursive schema; the bound only turns a future cycle into an error.
const MAX_DEPTH = 32;

export function inlineSchema(schema: Node): Node {
  return inline(schema, schema, 0) as Node;
}

function inline(node: unknown, root: Node, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new Error('schema references nest too deeply (a cycle?)');
  if (Array.isArray(node)) return node.map((item) => inline(item, root, depth + 1));
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Node;
  if (typeof obj.$ref === 'string') {
    const { target, targetRoot } = resolve(obj.$ref, root);
    const { $ref: _ref, ...siblings } = obj;
    const merged = { ...(inline(target, targetRoot, depth + 1) as Node), ...siblings };
    return inline(merged, targetRoot, depth + 1);
  }
  const out: Node = {};
  for (const [key, value] of Object.entries(obj)) {
    if (!DROPPED.has(key)) out[key] = inline(value, root, depth + 1);
  }
  return out;
}

function resolve(ref: string, root: Node): { target: unknown; targetRoot: Node } {
  const [base, pointer = ''] = ref.split('#', 2) as [string, string?];
  const targetRoot = base === '' ? root : byId.get(base);
  if (!targetRoot) throw new Error(`unknown schema reference ${ref}`);
  let target: unknown = targetRoot;
  for (const part of pointer.split('/').filter((p) => p !== '')) {
    target = (target as Node | undefined)?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  if (target === undefined) throw new Error(`schema reference ${ref} points at nothing`);
  return { target, targetRoot };
}
