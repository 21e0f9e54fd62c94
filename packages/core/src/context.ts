// What the gate's parts share: the policy, the store, the clock and the settings, built once by
// createGate and passed down instead of living in module state.
import type { ToolHints } from './classify.js';
import type { OnLimit, SessionLimits } from './limits.js';
import type { Policy } from './policy/types.js';
import type { Clock, ReviewRecord, Store } from './ports.js';

export interface GateContext {
  readonly policy: Policy;
  readonly store: Store;
  readonly clock: Clock;
  readonly mode: 'enforce' | 'observe';
  readonly newId: () => string;
  readonly denyCeiling: number;
  readonly escalation: 'ask_human' | 'hard_deny';
  readonly defaultMaxAgeS: number;
  readonly excerptBytes: number;
  readonly toolHints: (tool: string) => ToolHints | undefined;
  /** Waits for write-behind audit rows (a precondition reading dispatched calls needs them stored). */
  readonly flushAudit?: () => Promise<void>;
  readonly limits: SessionLimits;
  readonly onLimit: OnLimit;
  /**
   * Where a directory lies for evidence: the top of its git repository, or the directory itself. A
   * shell read is evidence for a call in the same place only (evidence.ts). Absent: not checked.
   */
  readonly placeOf?: (dir: string) => string;
  /** Told of each review request filed (GateOptions.onReviewFiled). */
  readonly onReviewFiled?: (record: ReviewRecord) => Promise<void> | void;
}
