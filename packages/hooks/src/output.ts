// The JSON Claude Code reads back: always one object on stdout with exit 0 and
// hookSpecificOutput.hookEventName set (the one channel; never exit 2, never silence). This is the
// hook's boundary toward the model: every reason and context passes core's outgoing sanitiser here
// (its own line feeds kept, every other control, separator, format or bidi character removed, capped);
// a rewritten input is a command to run, not text for the model, and stays exact.
import { sanitiseOutgoing, sanitiseText } from '@tollgate/core';

/** Claude Code caps injected text at 10,000 characters; stay under it. */
export const MAX_TEXT = 9500;

export interface HookOutput {
  decision?: 'block';
  reason?: string;
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: 'allow' | 'deny' | 'ask';
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}

/** A text as it may reach the model: sanitised and capped. */
export function forModel(text: string): string {
  return sanitiseOutgoing(text, MAX_TEXT);
}

/** PreToolUse deny: the reason is shown to the model. */
export function deny(reason: string): HookOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: forModel(reason),
    },
  };
}

/**
 * PreToolUse ask: Claude Code shows the person at its terminal a permission prompt with this reason
 * (the reason goes to the person, not the model); the call runs only if they approve it there.
 */
export function ask(reason: string, context?: string): HookOutput {
  const out: HookOutput = {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'ask',
      permissionDecisionReason: forModel(reason),
    },
  };
  if (context !== undefined) out.hookSpecificOutput.additionalContext = forModel(context);
  return out;
}

/**
 * PreToolUse "no objection": the gate does not grant permission, so Claude Code's own permission
 * rules (allow/ask/deny lists, modes) still decide. Optional context tells the model what happened.
 */
export function noObjection(context?: string): HookOutput {
  const out: HookOutput = { hookSpecificOutput: { hookEventName: 'PreToolUse' } };
  if (context !== undefined) out.hookSpecificOutput.additionalContext = forModel(context);
  return out;
}

/** PreToolUse allow with a rewritten input (used only to bind `tollgate predict|decline` to the session). */
export function allowRewritten(updatedInput: Record<string, unknown>, reason: string): HookOutput {
  return {
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'allow',
      permissionDecisionReason: forModel(reason),
      updatedInput,
    },
  };
}

/** PostToolUse(/Failure): the tool already ran; context tells the model what the gate recorded. */
export function postContext(event: string, context?: string): HookOutput {
  const out: HookOutput = { hookSpecificOutput: { hookEventName: event } };
  if (context !== undefined) out.hookSpecificOutput.additionalContext = forModel(context);
  return out;
}

/**
 * Input the gate could not read: deny (for a PreToolUse, or when the event is unknown) and block,
 * with the problem named. The top-level decision/reason pair is the older field Claude Code still
 * maps to deny, so the refusal holds even if hookEventName names an event Claude Code did not send.
 */
export function refuseInput(problem: string, given = 'PreToolUse'): HookOutput {
  // The event name is echoed back to the host: one that is not a plain name (escape sequences, a
  // bidi override) is not echoed, and the answer is the strictest, a PreToolUse denial (found by
  // test/fuzz/hook.test.ts).
  const event = /^[A-Za-z]{1,64}$/.test(given) ? given : 'PreToolUse';
  const reason = forModel(
    `Tollgate (an automated gate) could not read this hook call, so the tool call is refused: ${sanitiseText(problem, 600)}. Nothing was run. Retry the tool call; if this keeps happening, the hook configuration needs fixing (tollgate init claude-code).`,
  );
  const out: HookOutput = { decision: 'block', reason, hookSpecificOutput: { hookEventName: event } };
  if (event === 'PreToolUse' || !['PostToolUse', 'PostToolUseFailure'].includes(event)) {
    out.hookSpecificOutput.permissionDecision = 'deny';
    out.hookSpecificOutput.permissionDecisionReason = reason;
  } else {
    out.hookSpecificOutput.additionalContext = reason;
  }
  return out;
}
