// The JSON Schemas under contracts/schemas, loaded once; the single source of truth for every wire shape.
import auditRow from '../schemas/audit-row.json' with { type: 'json' };
import call from '../schemas/call.json' with { type: 'json' };
import config from '../schemas/config.json' with { type: 'json' };
import decline from '../schemas/decline.json' with { type: 'json' };
import envelope from '../schemas/envelope.json' with { type: 'json' };
import observation from '../schemas/observation.json' with { type: 'json' };
import observationInput from '../schemas/observation-input.json' with { type: 'json' };
import outcome from '../schemas/outcome.json' with { type: 'json' };
import policy from '../schemas/policy.json' with { type: 'json' };
import prediction from '../schemas/prediction.json' with { type: 'json' };
import reason from '../schemas/reason.json' with { type: 'json' };
import source from '../schemas/source.json' with { type: 'json' };
import verdict from '../schemas/verdict.json' with { type: 'json' };

/** Every schema by its short name (the file name without `.json`). */
export const schemas = {
  'audit-row': auditRow,
  call,
  config,
  decline,
  envelope,
  observation,
  'observation-input': observationInput,
  outcome,
  policy,
  prediction,
  reason,
  source,
  verdict,
} as const;

export type SchemaName = keyof typeof schemas;

export const schemaNames = Object.keys(schemas) as SchemaName[];

/** The `schema` version tag a document of this kind may carry, e.g. `tollgate.prediction/v1`. */
export function versionTag(name: SchemaName): string {
  return `tollgate.${name}/v1`;
}
