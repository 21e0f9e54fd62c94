// The optional `tollgate` argument an irreversible tool gains in tools/list: core's inlined envelope
// schema, described in the proxy's words.
import { envelopeArgumentSchema, TOLLGATE_ARG } from '@tollgate/core';

export { TOLLGATE_ARG };

export const tollgateProperty: Record<string, unknown> = {
  ...envelopeArgumentSchema,
  title: 'Tollgate envelope',
  description:
    'Required for irreversible calls: {"prediction": {claims, evidence}} citing reads you made through this server as {"tool": NAME, "args": {...}}, or {"decline": {irreducible, would_change_my_mind, attempted_observations}}. Call tollgate_rules to see what is gated and why.',
};
