// Local faults: thrown for things that are not a verdict (bad policy file, unusable store, bad input
// bytes). They carry a code and are never serialised as a wire reason.
export type FaultCode =
  | 'policy_invalid'
  | 'policy_unreadable'
  | 'config_invalid'
  | 'input_too_large'
  | 'input_invalid_utf8'
  | 'input_malformed_json'
  | 'input_too_deep'
  | 'input_invalid'
  | 'not_found'
  /** The request contradicts what is already recorded (a second outcome for one decision). */
  | 'conflict'
  /** A configured limit (limits.* in the config) refuses this request; details.limit names which. */
  | 'limit_exceeded'
  | 'store_unavailable';

export class TollgateFault extends Error {
  readonly code: FaultCode;
  readonly details: Record<string, unknown>;

  constructor(code: FaultCode, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.name = 'TollgateFault';
    this.code = code;
    this.details = details;
  }
}

export function isFault(error: unknown): error is TollgateFault {
  return error instanceof TollgateFault;
}
