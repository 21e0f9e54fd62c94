// Interpreter code that hands a literal command line to the shell — awk `system("…")`, python
// `os.system('…')` / `subprocess.run([...])`, ruby and perl `system`/backticks, php `shell_exec`,
// node `require('child_process').execSync('…')`: the literal is a shell command like any other, and
// what is left of the code is judged on its own. A literal that interpolates (`"#{x}"`, `"$x"`), or a
// call whose argument is not one literal, stays code and is not read here.
import type { Extractor, Invocation } from './extract.js';
import { isReadOnlyCode } from './payload.js';
import type { Language } from './programs.js';

export interface ShellCalls {
  /** The command lines the code runs, as the shell receives them. */
  commands: string[];
  /** The code with those calls replaced by an empty string literal. */
  rest: string;
}

/** A single- or double-quoted literal with no escapes and nothing a language interpolates. */
const SINGLE = String.raw`'([^'\\\n]*)'`;
const DOUBLE = String.raw`"([^"\\\n$@#\`]*)"`;
const LITERAL = `(?:${SINGLE}|${DOUBLE})`;
const LIST = String.raw`\[\s*${LITERAL}(?:\s*,\s*${LITERAL})*\s*\]`;
/** Keyword arguments of subprocess calls that do not change what runs (shell only with a string). */
const PY_KWARGS = String.raw`(?:\s*,\s*(?:check|text|capture_output|universal_newlines)\s*=\s*\w+)*`;
const PY_SHELL = String.raw`(?:\s*,\s*shell\s*=\s*True)?`;
const NODE_OPTIONS = String.raw`(?:\s*,\s*\{[^{}()]*\})?`;
/** `f(LIT)`, or perl/ruby's `f LIT` ending the statement. */
const ONE = (name: string) =>
  new RegExp(String.raw`\b(?:${name})(?:\s*\(\s*${LITERAL}\s*\)|\s+${LITERAL}\s*(?=;|\}|$))`, 'g');

const CALLS: Partial<Record<Language, RegExp[]>> = {
  awk: [new RegExp(String.raw`\bsystem\s*\(\s*${DOUBLE}\s*\)`, 'g')],
  python: [
    new RegExp(String.raw`\bos\.(?:system|popen)\s*\(\s*${LITERAL}\s*\)`, 'g'),
    new RegExp(
      String.raw`\bsubprocess\.(?:run|call|check_call|check_output|getoutput|getstatusoutput)\s*\(\s*(?:${LITERAL}${PY_SHELL}|${LIST})${PY_KWARGS}\s*\)`,
      'g',
    ),
  ],
  ruby: [ONE('system|exec'), /`([^`#$\\\n]*)`/g],
  perl: [ONE('system|exec'), /`([^`$@\\\n]*)`/g],
  php: [new RegExp(String.raw`\b(?:system|shell_exec|exec|passthru)\s*\(\s*${LITERAL}\s*\)`, 'g')],
  node: [
    new RegExp(
      String.raw`\brequire\(\s*['"](?:node:)?child_process['"]\s*\)\.(?:execSync|exec)\s*\(\s*${LITERAL}${NODE_OPTIONS}\s*\)`,
      'g',
    ),
  ],
};

/** The shell calls of a piece of code, or null when it makes none this reads. */
export function shellCalls(language: Language, code: string): ShellCalls | null {
  const patterns = CALLS[language];
  if (!patterns) return null;
  const commands: string[] = [];
  let rest = code;
  for (const pattern of patterns) {
    rest = rest.replace(pattern, (whole: string, ...args: unknown[]) => {
      // The captures come before the match offset (a number) and the input.
      const captures = args.slice(
        0,
        args.findIndex((a) => typeof a === 'number'),
      );
      const words = captures.filter((c): c is string => typeof c === 'string');
      // A list is argv (`['git', 'status']`): each element one word, quoted for the shell. A
      // repeated group keeps only its last capture, so the list's literals are read again.
      const list = /^\w+\.\w+\s*\(\s*\[/.test(whole) ? (new RegExp(LIST).exec(whole)?.[0] ?? '') : '';
      if (list !== '') {
        const elements = [...list.matchAll(new RegExp(LITERAL, 'g'))].map((m) => m[1] ?? m[2] ?? '');
        commands.push(elements.map(quote).join(' '));
      } else commands.push(words[0] ?? '');
      return ' ""';
    });
  }
  if (commands.length === 0) return null;
  if (language === 'python') rest = dropShellModules(rest);
  return { commands, rest };
}

function quote(word: string): string {
  return `'${word}'`;
}

const IMPORT = /\bimport\s+[\w.]+(?:\s*,\s*[\w.]+)*/g;

/** `import os, subprocess` names what the replaced calls used: dropped when nothing else uses them. */
function dropShellModules(code: string): string {
  if (/\b(os|subprocess)\b/.test(code.replace(IMPORT, ' '))) return code;
  return code.replace(IMPORT, (stmt) => {
    const names = stmt
      .replace(/^import\s+/, '')
      .split(/\s*,\s*/)
      .filter((n) => n !== 'os' && n !== 'subprocess');
    return names.length > 0 ? `import ${names.join(', ')}` : '';
  });
}

/**
 * Code that is read-only apart from literal shell calls: those commands are parsed as commands of the
 * call (labelled `label`) and true is returned; false when the code is neither (unknown-dynamic).
 * Plainly read-only code is not this function's to judge.
 */
export function judgeShellCalls(
  ex: Extractor,
  inv: Invocation,
  language: Language,
  code: string,
  label: string,
): boolean {
  const calls = shellCalls(language, code);
  if (!calls || !isReadOnlyCode(language, calls.rest)) return false;
  for (const command of calls.commands) ex.parseString(command, [...inv.via, label], { ifs: ' \t\n' });
  return true;
}
