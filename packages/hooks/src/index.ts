// Public surface of @tollgate/hooks: the Claude Code hook translation that both the CLI
// (`tollgate hook claude-code`) and the HTTP service (POST /v1/hooks/claude-code) call. Any new
// export here becomes public API.
export { AGENT, claudeCodeHook, HOST_PERSON, RECORDED_BY } from './claude-code.js';
export { openDispatch } from './decision-row.js';
export type { HookDeps } from './deps.js';
export { type HookRuntime, runClaudeCodeHook } from './entry.js';
export {
  forModel,
  HOST_NAMES,
  type HostAdapter,
  type HostAnswer,
  type HostName,
  type HostParse,
  type HostRuntime,
  refuse as refuseHostInput,
  runHostHook,
  type ShapedDecision,
} from './host.js';
export { personAtHost } from './host-prompt.js';
export { GEMINI_SESSION_EVENTS } from './hosts/gemini.js';
export { HOSTS } from './hosts/index.js';
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
  isTollgateWord,
  type TicketCommand,
  ticketCommand,
} from './ticket-command.js';
export { spawnTicket, type TicketRun, type TicketRunner } from './ticket-run.js';
export {
  CLAUDE_CODE,
  callFor,
  type HookDecision,
  type HostInfo,
  selfRoots,
  toolCall,
  translate,
} from './translate.js';
