// What the routes are built from: everything injected, nothing global.
import type { Clock, Gate, Store } from '@tollgate/core';
import type { Logger } from 'pino';
import type { TokenTable } from './auth.js';
import type { Metrics } from './metrics.js';
import type { HookOptions } from './routes/hooks.js';

export interface Deps {
  gate: Gate;
  store: Store;
  tokens: TokenTable;
  logger: Logger;
  metrics: Metrics;
  clock: Clock;
  maxBodyBytes: number;
  hook: HookOptions;
}
