// Public surface of @tollgate/contracts: the schemas, their generated types and the validators.
// Any new export here becomes public API.
export type * from './generated/types.js';
export { builtinPolicyNames, builtinPolicyPath } from './policies.js';
export { type SchemaName, schemaNames, schemas, versionTag } from './schemas.js';
export {
  CONTRACT_AJV_OPTIONS,
  contractAjv,
  DATE_TIME,
  describeErrors,
  type SchemaProblem,
  type Validation,
  validate,
  validatorFor,
} from './validate.js';
