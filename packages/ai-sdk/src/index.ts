// Public surface of @tollgate/ai-sdk. Any new export here becomes public API.
export { type GateToolsOptions, gateTool, gateTools } from './gate-tools.js';
export { withTollgateArg } from './input-schema.js';
export { isTollgateReply, type TollgateReply } from './replies.js';
