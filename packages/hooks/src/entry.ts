// One hook call from bytes to answer, with every failure turned into an explicit decision: input
// that cannot be read is refused, and a gate that cannot open or decide denies a PreToolUse (a
// crashed gate is not an open gate). Both the CLI and the HTTP service call this.
import { sanitiseText } from '@tollgate/core';
import { claudeCodeHook } from './claude-code.js';
import type { HookDeps } from './deps.js';
import { type HookInput, type HookParse, parseHookInput } from './input.js';
import { deny, type HookOutput, postContext, refuseInput } from './output.js';

export interface HookRuntime {
  deps: HookDeps;
  close(): Promise<void>;
}

/** `open` builds the gate for this input (the CLI resolves config from the input's cwd). */
export async function runClaudeCodeHook(
  body: Uint8Array | string | HookParse,
  open: (input: HookInput) => Promise<HookRuntime>,
): Promise<HookOutput> {
  const parsed = typeof body === 'string' || body instanceof Uint8Array ? parseHookInput(body) : body;
  if (!parsed.ok) return refuseInput(parsed.problem, parsed.event);
  const { input } = parsed;
  let runtime: HookRuntime | undefined;
  try {
    runtime = await open(input);
    return await claudeCodeHook(input, runtime.deps);
  } catch (error) {
    return unavailable(input, error);
  } finally {
    await runtime?.close().catch(() => {});
  }
}

function unavailable(input: HookInput, error: unknown): HookOutput {
  const message = sanitiseText(error instanceof Error ? error.message : String(error), 300);
  if (input.hook_event_name === 'PreToolUse') {
    return deny(
      `Tollgate (an automated gate) is unavailable and could not decide this call, so it is denied [gate_unavailable]: ${message}. Nothing was run. Retry shortly; if it persists, ask the user to check the tollgate setup.`,
    );
  }
  const what = input.tool_name === '' ? 'this event' : 'this tool result';
  return postContext(
    input.hook_event_name,
    `Tollgate could not record ${what} (${message}); it will not count as evidence.`,
  );
}
