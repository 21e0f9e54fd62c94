// One vitest config for the whole repository: a project per package (tests beside the code) plus the
// cross-package end-to-end tests in test/. The `source` condition resolves workspace packages to src/.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The gate keeps pins, anchors and default stores under a state directory outside the project
// (~/.local/state/tollgate): tests and every process they start use a throwaway one instead, through
// both variables, because some helpers hand children an environment without TOLLGATE_* variables.
// The config is loaded more than once per run; one directory serves them all (kept in this process's
// environment, which every load of this file shares).
process.env.TOLLGATE_TEST_STATE ??= mkdtempSync(join(tmpdir(), 'tollgate-test-state-'));
// biome-ignore lint/suspicious/noUndeclaredEnvVars: as above.
const state = process.env.TOLLGATE_TEST_STATE;
const stateEnv = { XDG_STATE_HOME: state, TOLLGATE_STATE_DIR: join(state, 'tollgate') };

const packages = ['core', 'store', 'shell', 'cli', 'http', 'mcp', 'hooks', 'ai-sdk', 'openai-agents'];

export default defineConfig({
  resolve: { conditions: ['tollgate-source'] },
  ssr: { resolve: { conditions: ['tollgate-source', 'node'] } },
  test: {
    env: stateEnv,
    globalSetup: ['./test/support/state-dir.ts'],
    projects: [
      { extends: true as const, test: { name: 'contracts', include: ['contracts/src/**/*.test.ts'] } },
      // Package suites do real I/O too (PostgreSQL, SQLite files, child processes) and turbo runs them
      // all at once on this project's 2 cores: 5 s, vitest's default, was missed under that load.
      ...packages.map((name) => ({
        extends: true as const,
        test: {
          name,
          include: [`packages/${name}/src/**/*.test.ts`],
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      })),
      {
        extends: true as const,
        test: { name: 'e2e', include: ['test/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
});
