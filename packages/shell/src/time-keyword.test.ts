// Bash's `time` keyword takes a whole pipeline: a simple command with its own assignments (they reach
// the command's environment: `time LD_PRELOAD=/x.so git` is git with LD_PRELOAD set) or a compound
// command. `time git …` and /usr/bin/time with its options are still read as a prefix.
import { expect, it } from 'vitest';
import { parseShell } from './facts.js';

it('reads assignments after time (and time -p) as the command environment', () => {
  for (const command of [
    'time LD_PRELOAD=/x.so git status',
    'time -p LD_PRELOAD=/x.so A=1 git status',
    'time if LD_PRELOAD=/x.so git status; then ls; fi',
    'time ( LD_PRELOAD=/x.so git status )',
    'time time -p LD_PRELOAD=/x.so git status',
  ]) {
    const git = parseShell(command).segments.find((s) => s.program === 'git');
    expect(git?.assignments, command).toContain('LD_PRELOAD=/x.so');
  }
});

it('still reads time before a plain command, or with its own options, as a prefix', () => {
  for (const command of ['time git status', 'time -p git status', 'time -f %e git status']) {
    const [segment] = parseShell(command).segments;
    expect(segment?.program, command).toBe('git');
    expect(segment?.via, command).toContain('time');
  }
});
