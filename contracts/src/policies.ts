// Where the shipped rule catalogues (contracts/policies/*.yaml) live on disk: beside this module in
// the source tree, or copied next to a bundled binary (dist/policies).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const builtinPolicyNames = ['files', 'shell', 'mcp'] as const;

export function builtinPolicyPath(name: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(name)) return undefined;
  for (const relative of [`../policies/${name}.yaml`, `./policies/${name}.yaml`]) {
    const path = fileURLToPath(new URL(relative, import.meta.url));
    if (existsSync(path)) return path;
  }
  return undefined;
}
