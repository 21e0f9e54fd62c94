// The launcher files web frameworks generate into a project (Django's manage.py, Rails' bin/rails,
// Laravel's artisan): each only hands its words to the framework's own command line, so running it is
// running that command (`python manage.py migrate` is `django-admin migrate`), judged by its words
// as the framework's CLI is. A file is taken for one only when every statement in it is one of the
// generated shapes; anything added (a call, an import, an assignment) makes it code like any other.
import type { Language } from './programs.js';

/** A string literal (either quote, no escapes or interpolation needed here). */
const STR = `(?:"[^"\\\\$#{}]*"|'[^'\\\\]*')`;

const shapes = (lines: string[]): RegExp[] => lines.map((line) => new RegExp(`^${line}$`));

/** Statements of Django's manage.py, 1.x to 5.x. */
const DJANGO = shapes([
  'import os',
  'import sys',
  'import django',
  'def main\\(\\):',
  `os\\.environ\\.setdefault\\(["']DJANGO_SETTINGS_MODULE["'], ?${STR}\\)`,
  'try:',
  'from django\\.core\\.management import execute_from_command_line',
  'except ImportError( as \\w+)?:',
  `raise ImportError\\(\\s*(${STR}\\s*)+\\)( from \\w+)?`,
  'raise',
  'execute_from_command_line\\(sys\\.argv\\)',
  `if __name__ == ${STR}:`,
  'main\\(\\)',
]);

/**
 * Statements of Rails' bin/rails and bin/rake (with or without spring's loader): one set, as the
 * launcher is told from other ruby by its marker, `require "rails/commands"` or `Rake.application.run`.
 */
const RAILS = shapes([
  `APP_PATH = File\\.expand_path\\(${STR}, ?(__dir__|__FILE__)\\)`,
  `require_relative ${STR}`,
  `require ${STR}`,
  `load File\\.expand_path\\(${STR}, ?(__dir__|__FILE__)\\)`,
  'begin',
  'rescue LoadError => \\w+',
  `raise unless \\w+\\.message\\.include\\?\\(${STR}\\)`,
  'end',
  'Rake\\.application\\.run',
]);

/** Statements of Laravel's artisan, 5.x to 11.x. */
const LARAVEL = shapes([
  '<\\?php',
  'use [\\w\\\\]+;',
  `define\\(${STR}, ?microtime\\(true\\)\\);`,
  `require __DIR__ ?\\. ?${STR};`,
  `\\$app = require_once __DIR__ ?\\. ?${STR};`,
  '\\$status = \\$app->handleCommand\\(new ArgvInput\\);',
  '\\$kernel = \\$app->make\\([\\w\\\\]+::class\\);',
  '\\$status = \\$kernel->handle\\(',
  '\\$input = new [\\w\\\\]+,',
  'new [\\w\\\\]+',
  '\\);',
  '\\$kernel->terminate\\(\\$input, \\$status\\);',
  'exit\\(\\$status\\);',
]);

const BY_LANGUAGE: Partial<Record<Language, { shapes: RegExp[]; marker: RegExp }>> = {
  python: { shapes: DJANGO, marker: /^execute_from_command_line\(sys\.argv\)$/ },
  ruby: { shapes: RAILS, marker: /^(require ["']rails\/commands["']|Rake\.application\.run)$/ },
  php: { shapes: LARAVEL, marker: /^\$status = \$(app|kernel)->handle/ },
};

/** Whether a program file is a framework's generated launcher, and nothing more. */
export function isFrameworkLauncher(language: Language, text: string): boolean {
  const known = BY_LANGUAGE[language];
  if (!known || text.length > 4096) return false;
  const statements = logicalLines(language, text);
  return (
    statements.some((s) => known.marker.test(s)) &&
    statements.every((s) => known.shapes.some((shape) => shape.test(s)))
  );
}

/** The file's statements: comments, docstrings and blank lines dropped, a call's argument lines joined. */
function logicalLines(language: Language, text: string): string[] {
  let body = text.replace(/^#![^\n]*\n/, '');
  if (language === 'python') body = body.replace(/^\s*("""|''')[\s\S]*?\1\s*$/gm, '');
  if (language === 'php') body = body.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  else body = body.replace(/^\s*#.*$/gm, '');
  const out: string[] = [];
  let open = '';
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    // Python's `raise ImportError(` runs over lines up to its `)`: one statement.
    if (open !== '') {
      open += ` ${line}`;
      if (/^\)/.test(line)) {
        out.push(open);
        open = '';
      }
      continue;
    }
    if (language === 'python' && /\($/.test(line)) open = line;
    else out.push(line);
  }
  if (open !== '') out.push(open);
  return out;
}
