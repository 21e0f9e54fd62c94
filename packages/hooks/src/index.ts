// Public surface of @tollgate/hooks: the Claude Code hook translation that both the CLI
// (`tollgate hook claude-code`) and the HTTP service (POST /v1/hooks/claude-code) call. Any new
// export here becomes public API.
export {
  AGENT,
  callFor,
  claudeCodeHook,
  type HookDeps,
  RECORDED_BY,
  selfRoots,
  toolCall,
} from './claude-code.js';
export { openDispatch } from './decision-row.js';
export { type HookRuntime, runClaudeCodeHook } from './entry.js';
export {
  checkHookInput,
  HANDLED_EVENTS,
  type HookEvent,
  type HookInput,
  type HookParse,
  parseHookInput,
} from './input.js';
export { type HookOutput, MAX_TEXT, refuseInput } from './output.js';
export { type Probe, shellProbe } from './probe.js';
export { isReadTool, responseText } from './reads.js';
export { type SelfIdentity, selfIdentity } from './self-identity.js';
export { shellLine, shellWord } from './shell-word.js';
export {
  type BoundSubcommand,
  boundTicketCommand,
  type TicketCommand,
  ticketCommand,
} from './ticket-command.js';
