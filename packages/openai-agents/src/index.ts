// Public surface of @tollgate/openai-agents. Any new export here becomes public API.
export { gateAgentTools, gateFunctionTool } from './gate-tools.js';
export { GUARDRAIL_NAME, tollgateInputGuardrail } from './guardrail.js';
export { type GateAgentToolsOptions, PendingChecks } from './options.js';
