// Whether a person is at Claude Code's terminal to answer a permission prompt, judged from what the
// host (never the agent) hands the hook process: its environment and the hook input's
// permission_mode. Then a call that waits for review is answered `ask` (the person approves it in
// the host's own prompt); otherwise it is denied, naming the review and how to approve it.
//
// The heuristic, and which way it fails:
// - CLAUDE_CODE_ENTRYPOINT must be exactly `cli` (interactive); `sdk-cli` (`claude -p`), `sdk-ts`,
//   `sdk-py`, or no value at all: headless. CI set: headless.
// - permission_mode must be `default` or `plan`, the modes where Claude Code shows a prompt for an
//   `ask`. `auto` and `bypassPermissions` have auto-approved hook asks in released builds, `dontAsk`
//   turns asks into refusals, `acceptEdits` auto-accepts edits, and a missing mode says nothing: all
//   take the deny form.
// When unsure it is the deny form: the call is refused and a person approves it with the CLI. If a
// headless run is mistaken for a terminal (some builds report `cli` for `-p` too), Claude Code has
// no one to show the prompt to and refuses the call, so the error is a plainer refusal, never a pass.
import type { HookInput } from './input.js';

const PROMPTING_MODES = new Set(['default', 'plan']);

export function personAtHost(input: Pick<HookInput, 'permission_mode'>, env: NodeJS.ProcessEnv): boolean {
  if (env.CLAUDE_CODE_ENTRYPOINT !== 'cli') return false;
  if (env.CI) return false;
  return input.permission_mode !== undefined && PROMPTING_MODES.has(input.permission_mode);
}
