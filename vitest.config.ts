// One vitest config for the whole repository: a project per package (tests beside the code) plus the
// cross-package end-to-end tests in test/. The `source` condition resolves workspace packages to src/.
import { defineConfig } from 'vitest/config';

const packages = ['core', 'store', 'shell', 'cli', 'http', 'mcp', 'hooks'];

export default defineConfig({
  resolve: { conditions: ['tollgate-source'] },
  ssr: { resolve: { conditions: ['tollgate-source', 'node'] } },
  test: {
    projects: [
      { extends: true as const, test: { name: 'contracts', include: ['contracts/src/**/*.test.ts'] } },
      ...packages.map((name) => ({
        extends: true as const,
        test: { name, include: [`packages/${name}/src/**/*.test.ts`] },
      })),
      {
        extends: true as const,
        test: { name: 'e2e', include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
