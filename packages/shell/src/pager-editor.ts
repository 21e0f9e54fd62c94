// Pagers and editors: commands a program runs with its output piped in (PAGER, GIT_PAGER, core.pager,
// pager.<cmd>) or a file appended (EDITOR, VISUAL, GIT_EDITOR, core.editor, sequence.editor). A value
// set for a command is judged as the command it makes, so `GIT_PAGER=cat` or `GIT_EDITOR=true` pass
// and `PAGER=sh`, `GIT_EDITOR='rm -rf'` gate, instead of gating every pager or editor setting by name.
import { givenConfig } from './git.js';

export type CommandKind = 'pager' | 'editor';

export interface CommandValue {
  kind: CommandKind;
  value: string;
  /** The lower-cased configuration entry the value came from. */
  entry: string;
}

const PAGER_KEY = /^(core\.pager|pager\.[^.=]+)$/i;
const EDITOR_KEY = /^(core\.editor|sequence\.editor)$/i;
const VARIABLES: Record<string, CommandKind> = {
  GIT_PAGER: 'pager',
  PAGER: 'pager',
  MANPAGER: 'pager',
  GIT_EDITOR: 'editor',
  GIT_SEQUENCE_EDITOR: 'editor',
  VISUAL: 'editor',
  EDITOR: 'editor',
};
/** `pager.<cmd>` may be a boolean: it turns the default pager on or off and names no command. */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i;

/** Whether a variable names a pager or an editor command. */
export function variableKind(name: string): CommandKind | undefined {
  return Object.hasOwn(VARIABLES, name) ? VARIABLES[name] : undefined;
}

/** The pager and editor commands a git invocation's own configuration (`-c`, GIT_CONFIG_*) sets. */
export function gitCommandValues(argv: string[], assignments: string[]): CommandValue[] {
  const out: CommandValue[] = [];
  for (const pair of givenConfig(argv, assignments)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const key = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    // `--config-env` values come from the environment (`!$VAR`): unknown, left to the rules.
    if (value.startsWith('!$')) continue;
    const entry = pair.toLowerCase();
    if (PAGER_KEY.test(key)) {
      const flag = key.toLowerCase().startsWith('pager.') && BOOLEAN.test(value);
      out.push({ kind: 'pager', value: flag ? '' : value, entry });
    } else if (EDITOR_KEY.test(key)) out.push({ kind: 'editor', value, entry });
  }
  return out;
}

/**
 * The shell text a program runs for a value: a pager reads the program's output on stdin, an
 * editor gets the file to edit as its last argument (a word whose value is unknown, so a program
 * that would run or delete it is judged on an unknown file). Empty for a value that runs nothing.
 */
export function commandText(kind: CommandKind, value: string): string {
  if (value.trim() === '') return '';
  return kind === 'pager' ? `cat -- "$PAGED_OUTPUT" | ${value}` : `${value} "$EDITED_FILE"`;
}
