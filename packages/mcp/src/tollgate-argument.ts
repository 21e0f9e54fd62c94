// The optional `tollgate` argument an irreversible tool gains in tools/list: the envelope schema from
// contracts/ (a prediction or a decline), inlined so no client has to resolve references.
import { schemas } from '@tollgate/contracts';
import { inlineSchema } from './inline-schema.js';

export const TOLLGATE_ARG = 'tollgate';

const envelope = inlineSchema(schemas.envelope as Record<string, unknown>);

export const tollgateProperty: Record<string, unknown> = {
  ...envelope,
  title: 'Tollgate envelope',
  description:
    'Required for irreversible calls: {"prediction": {claims, evidence}} citing reads you made through this server as {"tool": NAME, "args": {...}}, or {"decline": {irreducible, would_change_my_mind, attempted_observations}}. Call tollgate_rules to see what is gated and why.',
};
