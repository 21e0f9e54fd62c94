// The Claude Code adapter, shared by `tollgate hook claude-code` (stdin/stdout) and the HTTP
// service's POST /v1/hooks/claude-code: Claude Code's input is already the canonical event
// (input.ts), so this only shapes the neutral decision (translate.ts) into Claude Code's JSON.
import type { HookDeps } from './deps.js';
import type { HookInput } from './input.js';
import { allowRewritten, deny, type HookOutput, noObjection, postContext } from './output.js';
import { boundTicketCommand } from './ticket-command.js';
import { CLAUDE_CODE, type HookDecision, translate } from './translate.js';

export const AGENT = CLAUDE_CODE.agent;
export const RECORDED_BY = CLAUDE_CODE.recordedBy;

export async function claudeCodeHook(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  return claudeShape(await translate(input, deps, CLAUDE_CODE), input, deps);
}

function claudeShape(decision: HookDecision, input: HookInput, deps: HookDeps): HookOutput {
  switch (decision.kind) {
    case 'deny':
      return deny(decision.reason);
    case 'pass':
      return noObjection(decision.context);
    case 'noted':
      return postContext(input.hook_event_name, decision.context);
    case 'bind':
      // Claude Code runs a rewritten input: the agent's own Bash runs the bound line.
      return allowRewritten(
        {
          ...input.tool_input,
          command: boundTicketCommand(decision.ticket, input.session_id, deps.self, deps.storeEnv),
        },
        decision.note,
      );
  }
}
