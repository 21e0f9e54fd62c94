// Commands handed to something that runs them later or in another terminal (at/batch, tmux, script -c)
// are parsed as commands of the call; listing, attaching and plain sessions add nothing.
import { describe, expect, it } from 'vitest';
import { parseShell } from './facts.js';

const facts = (command: string) => parseShell(command);
const segment = (command: string, program: string) =>
  facts(command).segments.find((s) => s.program === program);

describe('the command they run is a segment of the call', () => {
  it.each([
    ["at 23:00 <<< 'git clean -fdx'", 'git', ['at <stdin']],
    ['batch <<EOF\nrm -r /srv/cache\nEOF', 'rm', ['batch <stdin']],
    ["tmux new-session -d -s w 'rm -r /srv/cache'", 'rm', ['tmux new-session']],
    ["tmux neww -n x -c /srv 'git reset --hard'", 'git', ['tmux neww']],
    ["tmux split-window -h -l 20 'git push -f'", 'git', ['tmux split-window']],
    ["tmux run -b 'git stash clear'", 'git', ['tmux run']],
    ["tmux -c 'git clean -fd'", 'git', ['tmux -c']],
    ["tmux new -d \\; send-keys 'git reset --hard' Enter", 'git', ['tmux send-keys']],
    ["tmux send -t 1 'git reset --hard' C-m", 'git', ['tmux send-keys']],
    ["tmux if-shell 'git clean -fd' ''", 'git', ['tmux if-shell']],
    ["script -qc 'git reset --hard' /dev/null", 'git', ['script -c']],
    ["script -efq --command='rm -r /srv/cache' log.txt", 'rm', ['script -c']],
    ['script -cgit\\ stash\\ clear', 'git', ['script -c']],
  ])('%s runs %s via %j', (command, program, via) => {
    expect(segment(command, program)?.via).toEqual(via);
  });

  it('reads the key names send-keys types: Enter ends a line, C-c drops the open one', () => {
    expect(segment("tmux send-keys 'git' Space 'stash' Space 'clear' Enter", 'git')?.args).toEqual([
      'stash',
      'clear',
    ]);
    expect(segment("tmux send-keys 'git stash clear' C-c 'ls' Enter", 'git')).toBeUndefined();
    expect(segment("tmux send-keys -l 'git stash clear'", 'git')?.args).toEqual(['stash', 'clear']);
  });

  it('cannot tell what editing keys, hex keys, tmux commands or a variable make of the line', () => {
    for (const command of [
      "tmux send-keys 'git stash list' BSpace BSpace BSpace BSpace 'clear' Enter",
      'tmux send-keys -H 67 69 74 0a',
      "tmux run-shell -C 'kill-server'",
      "tmux if-shell true 'kill-server'",
      'tmux new -d "$JOB"',
      'at now <<< "$JOB"',
      'tmux source-file ~/.config/tmux/extra.conf',
      'tmux set-hook -g session-created \'run-shell "git clean -fdx"\'',
      "tmux bind-key k run-shell 'git stash clear'",
      "tmux set -g default-command 'git reset --hard; bash'",
    ]) {
      expect(facts(command).dynamic.length, command).toBeGreaterThan(0);
    }
  });

  it('a piped job is unknown; a job file is read when a file view is given', () => {
    expect(facts('cat job | at now').dynamic.map((d) => d.kind)).toContain('pipe_to_shell');
    expect(segment('at -f job.sh now', 'at')).toBeDefined();
  });
});

describe('what runs nothing new', () => {
  it.each([
    'at -l',
    'at -c 4',
    'atq',
    'tmux ls',
    'tmux attach -t w',
    'tmux set -g mouse on',
    'tmux set-option -g history-limit 50000',
    'tmux send-keys -t w C-c',
    "tmux new-session -d -s w 'npm run dev'",
    'script -q out.log',
    'su -s /bin/sh -c true',
  ])('%s', (command) => {
    const f = facts(command);
    expect(f.dynamic).toEqual([]);
    expect(f.segments.map((s) => s.program).filter((p) => p === 'git' || p === 'rm')).toEqual([]);
  });

  it('a value-taking letter ends a cluster: su -sc gives the shell "c", not a command', () => {
    expect(segment('su -sc /bin/sh bob', 'su')).toBeDefined();
    expect(facts('su -sc /bin/sh bob').segments.map((s) => s.program)).toEqual(['su']);
  });
});
