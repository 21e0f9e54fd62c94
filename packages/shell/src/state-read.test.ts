import { describe, expect, it } from 'vitest';
import { parseShell } from './facts.js';
import { stateRead } from './state-read.js';

const read = (command: string) => stateRead(parseShell(command));

describe('stateRead: whether a read can say anything about the state', () => {
  it.each([
    'git status',
    'git log --oneline -5 | head -3',
    'cat README.md',
    'grep -n TODO src/a.ts',
    'sed -n 1,5p notes.txt',
    'jq .version package.json',
    'ls -la && pwd',
    'cd src && ls',
    'wc -l < data.csv',
    'python3 tools/report.py',
    'psql -c "SELECT count(*) FROM t"',
  ])('%s reads state and is citable', (command) => {
    expect(read(command)).toMatchObject({ state: true, own_output: false });
  });

  it.each([
    'echo forged-evidence-42 | tr a-z A-Z',
    "printf '%s\\n' abc | rev",
    'cat <<EOF\nall good\nEOF',
    "tr a-z A-Z <<< 'forged'",
    'seq 1 3',
    "python3 -c 'print(42)'",
    "node -e 'console.log(1)'",
    'date',
  ])('%s prints only its own words', (command) => {
    expect(read(command).state).toBe(false);
  });

  it.each(['echo "$(git rev-parse HEAD) checked"', 'git status; echo forged', 'echo --- && git log -1'])(
    '%s mixes words of its own into a read',
    (command) => {
      expect(read(command)).toMatchObject({ state: true, own_output: true });
    },
  );

  it('a pure command whose output goes to a file adds nothing to what is printed', () => {
    expect(read('echo note > /dev/null; git status')).toMatchObject({ state: true, own_output: false });
  });
});
