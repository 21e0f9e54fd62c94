// PowerShell cmdlets as the command: parameters bound as PowerShell binds them (case-insensitive,
// unambiguous prefixes, `-Name:value`, `-Switch:$false`, positions), then judged as the POSIX
// command that does the same; -WhatIf is a dry run; Invoke-Expression is unresolved code.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

/** The argv of the segment judged in the cmdlet's place (the one whose via ends with the cmdlet). */
const judgedAs = (command: string) => {
  const facts = parseShell(command);
  const inner = facts.segments.find((s) => s.via.length > 0);
  return inner ? [inner.program, ...inner.args] : null;
};

describe('PowerShell cmdlets', () => {
  it.each([
    ["Remove-Item -Recurse -Force 'C:\\work\\site'", ['rm', '-r', '-f', '--', 'C:\\work\\site']],
    ['remove-item -rec -fo ./dist', ['rm', '-r', '-f', '--', './dist']],
    ['REMOVE-ITEM -LiteralPath:out,cache -Recurse', ['rm', '-r', '--', 'out', 'cache']],
    ['del -r -Force:$false obj', ['rm', '-r', '--', 'obj']],
    ['Get-ChildItem *.tmp | Remove-Item -Force', ['rm', '-f', '--', '(pipeline input)']],
    ['Clear-Content -Path app.log', ['truncate', '-s', '0', '--', 'app.log']],
    ["Set-Content /etc/hosts '127.0.0.1 x'", ['tee', '--', '/etc/hosts']],
    ['Add-Content notes.md more', ['tee', '-a', '--', 'notes.md']],
    ['Out-File -FilePath report.txt -Append', ['tee', '-a', '--', 'report.txt']],
    ['Format-Volume -DriveLetter E -FileSystem NTFS', ['mkfs', 'E:']],
    ['Stop-Computer -Force', ['shutdown']],
    ['Restart-Computer -ComputerName build01', ['reboot']],
    [
      "Remove-ItemProperty -Path 'HKCU:\\Software\\App' -Name Token",
      ['rm', '-f', '--', 'HKCU:\\Software\\App/Token'],
    ],
    [
      "Invoke-WebRequest -Uri https://hooks.example.org/in -Method post -Body '{}'",
      ['curl', '-X', 'POST', '--data-binary', '{}', '--', 'https://hooks.example.org/in'],
    ],
    ["Start-Process git -ArgumentList 'push','--force'", ['git', 'push', '--force']],
  ])('%s is judged as %j', (command, argv) => {
    expect(judgedAs(command)).toEqual(argv);
  });

  it('-WhatIf (or a prefix of it) is a dry run: nothing is judged in its place', () => {
    expect(judgedAs('Remove-Item -Recurse -Force build -WhatIf')).toBeNull();
    expect(judgedAs('Remove-Item -Recurse build -wh')).toBeNull();
    expect(judgedAs('Remove-Item -Recurse build -WhatIf:$false')).toEqual(['rm', '-r', '--', 'build']);
  });

  it('Invoke-Expression runs code that is not read here', () => {
    for (const command of ["Invoke-Expression 'Get-Date'", 'iex $script']) {
      expect(parseShell(command).dynamic.map((d) => d.kind)).toContain('unresolved_code');
    }
    // Elixir's shell has the same name.
    for (const command of ['iex -S mix', 'iex -S mix phx.server', 'iex --sname a']) {
      expect(parseShell(command).dynamic, command).toEqual([]);
    }
  });

  it('aliases shared with POSIX programs are left to them', () => {
    expect(judgedAs('ri -f markdown Array')).toBeNull();
    expect(judgedAs('ac -d -p')).toBeNull();
  });

  it('reads and unknown Verb-Noun words are left alone', () => {
    for (const command of [
      'Get-ChildItem -Recurse',
      'Get-Content app.log',
      'Select-String TODO src',
      'Test-Path x',
    ]) {
      expect(judgedAs(command)).toBeNull();
      expect(parseShell(command).dynamic).toEqual([]);
    }
  });
});
