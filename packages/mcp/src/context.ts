// What every downstream session of one proxy shares: the gate, the upstream, its tool catalogue,
// the argument validator, the deadline and the session pin.
import type { Gate } from '@tollgate/core';
import type { ArgsValidator } from './args-validator.js';
import type { ToolCatalogue } from './catalogue.js';
import type { Upstream } from './upstream.js';

export interface ProxyContext {
  gate: Gate;
  upstream: Upstream;
  catalogue: ToolCatalogue;
  validator: ArgsValidator;
  /** Deadline for one upstream call (reset by progress). */
  callTimeoutMs: number;
  /** An operator-pinned session; otherwise each connection is its own scope (session.ts). */
  pinnedSession: string | undefined;
  log: (line: string) => void;
}

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
