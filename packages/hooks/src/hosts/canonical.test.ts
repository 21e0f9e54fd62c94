import { describe, expect, it } from 'vitest';
import { argsObject, patchFiles, shellCommand } from './canonical.js';

describe('shellCommand', () => {
  it('takes a string as it is and a [bash, -lc, LINE] argv as LINE', () => {
    expect(shellCommand('git push -f')).toBe('git push -f');
    expect(shellCommand(['bash', '-lc', 'git push -f && ls'])).toBe('git push -f && ls');
    expect(shellCommand(['/bin/sh', '-c', 'rm -rf x'])).toBe('rm -rf x');
  });

  it('quotes any other argv word by word, so the gate parses exactly what is exec-ed', () => {
    expect(shellCommand(['git', 'push', '--force', 'origin', 'main'])).toBe('git push --force origin main');
    expect(shellCommand(['rm', '-rf', 'a b; echo'])).toBe("rm -rf 'a b; echo'");
    // A shell with extra words after the line is not `sh -c LINE`: quoted whole.
    expect(shellCommand(['bash', '-c', 'echo $0', 'x'])).toBe("bash -c 'echo $0' x");
  });

  it('refuses what is not a command', () => {
    expect(shellCommand(undefined)).toBeUndefined();
    expect(shellCommand([])).toBeUndefined();
    expect(shellCommand(['git', 3])).toBeUndefined();
  });
});

describe('patchFiles', () => {
  it('names every file the patch adds, updates, deletes or moves to', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/a.ts',
      '@@',
      '-x',
      '+y',
      '*** Move to: src/b.ts',
      '*** Add File: .git/hooks/pre-push',
      '+#!/bin/sh',
      '*** Delete File: README.md',
      '*** End Patch',
    ].join('\n');
    expect(patchFiles(patch)).toEqual(['src/a.ts', 'src/b.ts', '.git/hooks/pre-push', 'README.md']);
  });

  it('reads odd spacing and CRLF, and a patch naming no file names one unresolvable path', () => {
    expect(patchFiles('***  add file :  x.txt\r\n+1\r\n')).toEqual(['x.txt']);
    expect(patchFiles('garbage')).toEqual(['']);
  });
});

describe('argsObject', () => {
  it('takes an object or a JSON string of one, and names what else it got', () => {
    expect(argsObject({ a: 1 }, 'toolArgs')).toEqual({ ok: true, args: { a: 1 } });
    expect(argsObject('{"command":"ls"}', 'toolArgs')).toEqual({ ok: true, args: { command: 'ls' } });
    expect(argsObject('[1]', 'toolArgs')).toMatchObject({
      ok: false,
      problem: expect.stringContaining('toolArgs'),
    });
    expect(argsObject(7, 'toolArgs')).toMatchObject({ ok: false });
  });
});
