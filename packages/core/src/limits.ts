// Session caps: how much one session may put in the ledger (observations, their excerpt bytes) and
// how many predictions and declines it may keep filed and unused. A noisy or hostile client fills its
// own session, never the store: past a cap the request is refused with a structured fault
// (limit_exceeded, details.limit naming the cap) and every call of the session still gets a verdict.
import type { Observation } from '@tollgate/contracts';
import { TollgateFault } from './faults.js';
import type { Store } from './ports.js';

export interface SessionLimits {
  /** Observations one session's ledger may hold. */
  observations: number;
  /** The sum of the excerpt bytes one session's ledger may hold. */
  excerptBytes: number;
  /** Predictions and declines filed ahead of their call and not yet used, per session. */
  pendingTickets: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  observations: 100_000,
  excerptBytes: 256 * 1024 * 1024,
  pendingTickets: 1_000,
};

/** Every limit the gate and its HTTP service enforce, as metrics and faults name them. */
export type LimitName =
  | 'http_rate'
  | 'session_observations'
  | 'session_excerpt_bytes'
  | 'session_pending_tickets';

export type OnLimit = (limit: LimitName) => void;

export function sessionLimits(given: Partial<SessionLimits> | undefined): SessionLimits {
  return { ...DEFAULT_SESSION_LIMITS, ...given };
}

/** Appends the observation within the session's caps, or throws limit_exceeded (nothing written). */
export async function admitObservation(
  store: Store,
  observation: Observation,
  limits: SessionLimits,
  onLimit: OnLimit,
): Promise<void> {
  const admitted = await store.insertObservationWithin(observation, {
    observations: limits.observations,
    excerptBytes: limits.excerptBytes,
  });
  if (admitted.ok) return;
  const limit = admitted.cap === 'observations' ? 'session_observations' : 'session_excerpt_bytes';
  onLimit(limit);
  const what =
    admitted.cap === 'observations'
      ? `${admitted.usage.observations} observations (the cap is ${limits.observations})`
      : `${admitted.usage.excerptBytes} excerpt bytes, and this read's ${Buffer.byteLength(observation.excerpt)} more would pass the cap of ${limits.excerptBytes}`;
  throw new TollgateFault(
    'limit_exceeded',
    `this session's ledger is full: it holds ${what}; this read was not recorded — start a new session, or ask an operator to raise limits.${limit}`,
    { limit, observations: admitted.usage.observations, excerpt_bytes: admitted.usage.excerptBytes },
  );
}

/** Throws limit_exceeded when the session already keeps `pendingTickets` unused tickets. */
export async function admitTicket(
  store: Store,
  session: string,
  limits: SessionLimits,
  onLimit: OnLimit,
): Promise<void> {
  const open = await store.countOpenTickets(session);
  if (open < limits.pendingTickets) return;
  onLimit('session_pending_tickets');
  throw new TollgateFault(
    'limit_exceeded',
    `this session keeps ${open} predictions and declines filed and unused (the cap is ${limits.pendingTickets}); make or drop the calls they were filed for before filing more`,
    { limit: 'session_pending_tickets', open },
  );
}
