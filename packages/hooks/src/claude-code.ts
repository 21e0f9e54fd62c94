// The Claude Code adapter, shared by `tollgate hook claude-code` (stdin/stdout) and the HTTP
// service's POST /v1/hooks/claude-code: Claude Code's input is already the canonical event
// (input.ts), so this only shapes the neutral decision (translate.ts) into Claude Code's JSON.
import type { HookDeps } from './deps.js';
import { askText, reviewToAsk } from './host-review.js';
import type { HookInput } from './input.js';
import { allowRewritten, ask, deny, type HookOutput, noObjection, postContext } from './output.js';
import { boundTicketCommand } from './ticket-command.js';
import { CLAUDE_CODE, type HookDecision, translate } from './translate.js';

export const AGENT = CLAUDE_CODE.agent;
export const RECORDED_BY = CLAUDE_CODE.recordedBy;
/** Who answered a review approved in Claude Code's own permission prompt. */
export const HOST_PERSON = `host:${CLAUDE_CODE.agent}`;

export async function claudeCodeHook(input: HookInput, deps: HookDeps): Promise<HookOutput> {
  const decision = await translate(input, deps, CLAUDE_CODE);
  // A call waiting for review, with a person at Claude Code's terminal: Claude Code prompts them.
  if (decision.kind === 'deny' && decision.reviewId !== undefined) {
    const review = await reviewToAsk(decision.reviewId, input, deps);
    if (review)
      return ask(
        askText(review, CLAUDE_CODE),
        `Tollgate asked the user to approve this call in Claude Code's prompt (review ${review.id}). If they decline, do not retry it; ask them what to do instead.`,
      );
  }
  return claudeShape(decision, input, deps);
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
