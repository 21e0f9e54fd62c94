// PowerShell's own command line (`pwsh`, `powershell`): parameters are case-insensitive, may start
// with `-`, `--` or `/`, and any unambiguous prefix names one (`-c`, `-ec`, `-File`, `-NoP`). What
// it is told to run — a command, an encoded command, a script file, positional text, or stdin — is
// PowerShell code, which is never shown read-only here.

/** Parameters that make it run code, with their documented short forms. */
const CODE = ['command', 'encodedcommand', 'commandwithargs', 'file'];
const CODE_ALIASES = new Set(['c', 'e', 'ec', 'cwa', 'f']);
/** Parameters that print and exit. */
const EXITS = new Set(['version', 'v', 'help', 'h', '?']);
/** Parameters taking a value, with their short forms. */
const VALUES = [
  'configurationname',
  'configurationfile',
  'custompipename',
  'executionpolicy',
  'inputformat',
  'outputformat',
  'settingsfile',
  'windowstyle',
  'workingdirectory',
];
const VALUE_ALIASES = new Set(['config', 'ex', 'ep', 'inp', 'if', 'o', 'of', 'settings', 'w', 'wd', 'wo']);
/** Switches. */
const SWITCHES = [
  'interactive',
  'login',
  'mta',
  'noexit',
  'nologo',
  'noprofile',
  'noprofileloadtime',
  'noninteractive',
  'sshservermode',
  'sta',
];
const SWITCH_ALIASES = new Set(['i', 'l', 'noe', 'nol', 'nop', 'noni', 'sshs']);

/**
 * Whether a PowerShell command line runs code: true for a command, encoded command, script file or
 * positional text (and for a parameter it would not accept, which a later version might); false when
 * it only prints (version, help) or starts interactively without input.
 */
export function powershellRunsCode(argv: readonly string[], hasStdin: boolean): boolean {
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    const m = /^(?:--?|\/)(.+)$/.exec(arg);
    if (!m) return true;
    const name = (m[1] as string).toLowerCase().replace(/:.*$/, '');
    if (EXITS.has(name)) return false;
    if (CODE_ALIASES.has(name) || CODE.some((p) => p.startsWith(name))) return true;
    if (VALUE_ALIASES.has(name) || VALUES.some((p) => p.startsWith(name))) {
      if (!(m[1] as string).includes(':')) i++;
      continue;
    }
    if (SWITCH_ALIASES.has(name) || SWITCHES.some((p) => p.startsWith(name))) continue;
    return true;
  }
  return hasStdin;
}
