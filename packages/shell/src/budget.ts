// Bounds on parsing: nesting depth, a wall-clock deadline, and the soft problems met on the way.
// A pathological command must come back quickly as a structured error, never hang or throw.

export class ShellSyntaxError extends Error {}

export class LimitExceeded extends Error {}

export interface Budget {
  maxDepth: number;
  depth: number;
  deadline: number;
  steps: number;
  /** Simple commands parsed so far (all nesting levels). */
  commands: number;
  /** Jobs of `parallel` commands met so far (all of them, all nesting levels). */
  jobs: number;
  /** Problems the parser recovered from (an unterminated quote or heredoc). */
  soft: string[];
}

export function createBudget(maxDepth: number, deadlineMs: number): Budget {
  return {
    maxDepth,
    depth: 0,
    deadline: performance.now() + deadlineMs,
    steps: 0,
    commands: 0,
    jobs: 0,
    soft: [],
  };
}

/**
 * Most steps (characters and tokens read, commands walked) one parse may take: far above any command
 * within the other bounds (a 32 KiB command with its scripts takes under 100,000), and reached by
 * inputs that make the parser read the same text again and again (`bash -c` nested in quotes). A
 * bound on work, not time: the same text gets the same answer on any machine.
 */
export const MAX_STEPS = 300_000;

/** Count a step; every 512 steps compare the clock with the deadline (a backstop, see facts.ts). */
export function tick(budget: Budget): void {
  if ((++budget.steps & 511) === 0) {
    if (budget.steps > MAX_STEPS) throw new LimitExceeded(`more than ${MAX_STEPS} parse steps`);
    if (performance.now() > budget.deadline) throw new LimitExceeded('parse deadline exceeded');
  }
}

/** More simple commands than this are not analysed (the command is gated as too large). */
export const MAX_COMMANDS = 500;

export function countCommand(budget: Budget): void {
  if (++budget.commands > MAX_COMMANDS) throw new LimitExceeded(`more than ${MAX_COMMANDS} simple commands`);
}

export function enter(budget: Budget): void {
  if (++budget.depth > budget.maxDepth) throw new LimitExceeded(`nesting deeper than ${budget.maxDepth}`);
  tick(budget);
}

export function leave(budget: Budget): void {
  budget.depth--;
}
