// PowerShell's command line read as PowerShell reads it: any spelling of a command, encoded command,
// script or positional text runs code (unknown-dynamic); version, help and a bare session do not.
import { describe, expect, it } from 'vitest';
import { parseShell } from './facts.js';
import { powershellRunsCode } from './powershell.js';

const words = (line: string) => line.split(' ');

describe('powershellRunsCode', () => {
  it.each([
    'pwsh -Command Get-Date',
    'pwsh -COMM Get-Date',
    'powershell /c Get-Date',
    'pwsh --command Get-Date',
    'pwsh -ec RwBlAHQALQBEAGEAdABlAA==',
    'pwsh -EncodedCommand RwBlAHQALQBEAGEAdABlAA==',
    'pwsh -e RwBlAHQALQBEAGEAdABlAA==',
    'pwsh -f build.ps1',
    'pwsh -NoProfile -ExecutionPolicy Bypass -File build.ps1',
    'pwsh -ep:Bypass -c Get-Date',
    'pwsh -WorkingDirectory C:/src -cwa Get-Item x',
    'pwsh build.ps1',
    'pwsh -Frobnicate',
  ])('%s runs code', (line) => {
    expect(powershellRunsCode(words(line), false)).toBe(true);
  });

  it.each([
    'pwsh',
    'pwsh -Version',
    'pwsh -v',
    'pwsh -?',
    'pwsh -Help',
    'pwsh -NoLogo -NoProfile',
    'pwsh -nop -noni -wd C:/src',
  ])('%s runs nothing', (line) => {
    expect(powershellRunsCode(words(line), false)).toBe(false);
  });

  it('a session fed on stdin runs what it reads', () => {
    expect(powershellRunsCode(['pwsh', '-NoLogo'], true)).toBe(true);
  });
});

describe('pwsh and powershell in a shell command', () => {
  it.each([
    `pwsh -NoProfile -Command "Remove-Item -Recurse -Force ./out"`,
    'powershell -ExecutionPolicy Bypass -File setup.ps1',
    'cat script.ps1 | pwsh -',
  ])('%s is unknown-dynamic', (command) => {
    expect(parseShell(command).dynamic.map((d) => d.kind)).toContain('interpreter_code');
  });

  it('pwsh --version is not', () => {
    expect(parseShell('pwsh --version').dynamic).toEqual([]);
  });
});
