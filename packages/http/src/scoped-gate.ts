// The gate as one token's agent uses it through the hook translation: every call and read it files
// carries the token's agent, whatever the translation would name (the hook names "claude-code").
import type { Gate } from '@tollgate/core';

export function scopedGate(gate: Gate, agent: string | undefined): Gate {
  if (agent === undefined) return gate;
  return {
    ...gate,
    check: (call, options) =>
      gate.check(typeof call === 'object' && call !== null ? { ...call, agent } : call, options),
    recordObservation: (input) => gate.recordObservation({ ...input, agent }),
  };
}
