'use strict';
// A hook must answer in its protocol even when the CLI cannot start: refuse, never go silent. One
// answer for both entries: bin/tollgate.js requires this file only on that failure path (no cost to
// a start that works), and bin/hook-snapshot.cjs evaluates it into the snapshot when it is built.
module.exports = function refuseStart(error) {
  const reason = `Tollgate (an automated gate) could not start, so the tool call is refused: ${String(error?.message ?? error).slice(0, 300)}`;
  const answer = {
    decision: 'block',
    reason,
    hookSpecificOutput: {
      hookEventName: 'PreToolUse',
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    },
  };
  const host = process.argv[3];
  // The other hosts each read their own deny; one object carries them all (Gemini takes "block" as deny).
  if (host !== 'claude-code')
    Object.assign(answer, {
      permission: 'deny',
      agent_message: reason,
      user_message: reason,
      permissionDecision: 'deny',
      permissionDecisionReason: reason,
    });
  process.stdout.write(`${JSON.stringify(answer)}\n`);
  if (host === 'codex') {
    process.stderr.write(`${reason}\n`);
    process.exitCode = 2;
  }
};
