// Per-upstream configuration (config `mcp.upstreams.NAME`) as policy: the upstream's own rule files,
// plus one rule each for its `irreversible` and `read_only` tool lists. These add to the loaded
// policy; as everywhere in core, an irreversible rule wins over a read rule for the same call.
import { isAbsolute, resolve } from 'node:path';
import type { PolicySource } from '@tollgate/core';

export interface UpstreamRules {
  policies?: string[];
  read_only?: string[];
  irreversible?: string[];
}

export interface UpstreamPolicy {
  /** Rule files to load, resolved against the config's directory (or builtin:NAME). */
  files: string[];
  /** Rules made from the tool lists, as policy documents. */
  sources: PolicySource[];
}

export function upstreamPolicySources(
  name: string,
  rules: UpstreamRules | undefined,
  root: string,
): UpstreamPolicy {
  if (!rules) return { files: [], sources: [] };
  const files = (rules.policies ?? []).map((f) =>
    f.startsWith('builtin:') || isAbsolute(f) ? f : resolve(root, f),
  );
  const slug = ruleSlug(name);
  const listed = [
    { key: 'irreversible', tools: rules.irreversible, severity: 'high', what: 'irreversible' },
    { key: 'read-only', tools: rules.read_only, severity: 'low', what: 'a read' },
  ] as const;
  const list = listed
    .filter((l) => l.tools !== undefined && l.tools.length > 0)
    .map((l) => ({
      id: `config.mcp.${slug}.${l.key}`,
      description: `the config lists this tool of upstream "${name}" as ${l.what}`,
      tool: l.tools,
      class: l.key,
      severity: l.severity,
    }));
  const sources =
    list.length > 0
      ? [
          {
            file: `config mcp.upstreams.${name}`,
            text: JSON.stringify({ schema: 'tollgate.policy/v1', rules: list }),
          },
        ]
      : [];
  return { files, sources };
}

/** An upstream name as a rule-id segment (lowercase letters, digits, '_', '.', '-'). */
export function ruleSlug(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .slice(0, 64);
  return slug === '' ? 'upstream' : slug;
}
