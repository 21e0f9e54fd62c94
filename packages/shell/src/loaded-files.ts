// The project files a tool loads and runs when it starts (pytest's conftest.py, cargo's build.rs, a
// Taskfile, a Rakefile, vitest's config; a justfile is read by recipe-runners.ts): the project's own
// code, not judged here, but listed as files the command runs, so that one the session wrote and has
// not read since is refused (as a script is), and one the same command writes first is caught.
// `python -m pytest` is the segment `pytest` too (code.ts), so it lists them as well.
import type { Extractor, Invocation } from './extract.js';
import { noteScript } from './scripts.js';

const JS = ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'];
const configs = (...stems: string[]): string[] => stems.flatMap((stem) => JS.map((ext) => `${stem}.${ext}`));

/** Per program, the files it loads from the directory it runs in. */
const LOADED: Record<string, readonly string[]> = {
  pytest: ['conftest.py', 'tests/conftest.py', 'test/conftest.py'],
  'py.test': ['conftest.py', 'tests/conftest.py', 'test/conftest.py'],
  cargo: ['build.rs'],
  task: ['Taskfile.yml', 'Taskfile.yaml', 'taskfile.yml', 'taskfile.yaml'],
  rake: ['Rakefile', 'rakefile', 'Rakefile.rb'],
  tox: ['tox.ini'],
  nox: ['noxfile.py'],
  vitest: configs('vitest.config', 'vite.config', 'vitest.workspace'),
  vite: configs('vite.config'),
  jest: configs('jest.config'),
  eslint: [...configs('eslint.config'), '.eslintrc.js', '.eslintrc.cjs'],
  prettier: [...configs('prettier.config'), '.prettierrc.js', '.prettierrc.cjs', '.prettierrc.mjs'],
  webpack: configs('webpack.config'),
  next: configs('next.config'),
  playwright: configs('playwright.config'),
};

/** cargo subcommands that compile the package (and so run its build script). */
const CARGO_BUILDS = new Set([
  'build',
  'b',
  'test',
  't',
  'run',
  'r',
  'check',
  'c',
  'clippy',
  'bench',
  'doc',
  'install',
]);

export function noteLoadedFiles(ex: Extractor, inv: Invocation, program: string): void {
  if (!ex.res.files) return;
  const names = Object.hasOwn(LOADED, program) ? LOADED[program] : undefined;
  if (names === undefined) return;
  if (program === 'cargo' && !CARGO_BUILDS.has(inv.argv.find((w, k) => k > 0 && !w.startsWith('-')) ?? ''))
    return;
  for (const name of names) {
    const { paths, unresolved } = ex.res.paths(name);
    if (unresolved) continue;
    for (const path of paths) if (ex.res.files.realpath(path) !== undefined) noteScript(ex.res, path);
  }
}
