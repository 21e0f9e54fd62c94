// Vitest global setup: removes the throwaway state directory vitest.config.ts made for this run, once
// the last project using it is done (every project inherits this setup; all run in one process).
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

// On globalThis: each project may load this module afresh.
const shared = globalThis as { tollgateStateUsers?: number };

export default function setup(project: TestProject): () => void {
  const dir = project.config.env?.XDG_STATE_HOME;
  shared.tollgateStateUsers = (shared.tollgateStateUsers ?? 0) + 1;
  return () => {
    shared.tollgateStateUsers = (shared.tollgateStateUsers ?? 1) - 1;
    if (shared.tollgateStateUsers === 0 && typeof dir === 'string' && dir.includes('tollgate-test-state-'))
      rmSync(dir, { recursive: true, force: true });
  };
}
