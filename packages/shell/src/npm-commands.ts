// npm's command names as npm reads them (its `deref`): an exact command, an alias, or any prefix
// that only one command or alias name starts with (`npm pub` is publish, `npm unpu` unpublish), and
// camelCase as kebab-case (`npm distTag`).

const COMMANDS = (
  'access adduser audit bugs cache ci completion config dedupe deprecate diff dist-tag docs doctor edit ' +
  'exec explain explore find-dupes fund get help help-search init install install-ci-test install-test ' +
  'link ll login logout ls org outdated owner pack ping pkg prefix profile prune publish query rebuild repo ' +
  'restart root run sbom search set shrinkwrap star stars start stop team test token undeprecate uninstall ' +
  'unpublish unstar update version view whoami'
).split(' ');

/** npm's aliases, to the command each stands for. */
const ALIASES: Record<string, string> = {
  add: 'install',
  i: 'install',
  in: 'install',
  ins: 'install',
  inst: 'install',
  insta: 'install',
  instal: 'install',
  isnt: 'install',
  isnta: 'install',
  isntal: 'install',
  isntall: 'install',
  'install-clean': 'ci',
  'isntall-clean': 'ci',
  ic: 'ci',
  'clean-install': 'ci',
  cit: 'install-ci-test',
  'clean-install-test': 'install-ci-test',
  sit: 'install-ci-test',
  it: 'install-test',
  up: 'update',
  upgrade: 'update',
  udpate: 'update',
  un: 'uninstall',
  unlink: 'uninstall',
  remove: 'uninstall',
  rm: 'uninstall',
  r: 'uninstall',
  rb: 'rebuild',
  list: 'ls',
  la: 'll',
  ln: 'link',
  t: 'test',
  tst: 'test',
  s: 'search',
  se: 'search',
  find: 'search',
  c: 'config',
  v: 'view',
  info: 'view',
  show: 'view',
  author: 'owner',
  home: 'docs',
  issues: 'bugs',
  'dist-tags': 'dist-tag',
  hlep: 'help',
  'run-script': 'run',
  rum: 'run',
  urn: 'run',
  x: 'exec',
  why: 'explain',
  'add-user': 'adduser',
  ddp: 'dedupe',
  verison: 'version',
  login: 'login',
  create: 'init',
  innit: 'init',
};

const NAMES = [...COMMANDS, ...Object.keys(ALIASES)];

/** The command npm runs for its first operand, or the word as given when npm knows none. */
export function npmCommand(word: string): string {
  const w = /[A-Z]/.test(word) ? word.replace(/[A-Z]/g, (m) => `-${m.toLowerCase()}`) : word;
  if (COMMANDS.includes(w)) return w;
  const alias = Object.hasOwn(ALIASES, w) ? ALIASES[w] : undefined;
  if (alias !== undefined) return alias;
  const matches = NAMES.filter((name) => name.startsWith(w));
  if (w === '' || matches.length !== 1) return word;
  const name = matches[0] as string;
  return Object.hasOwn(ALIASES, name) ? (ALIASES[name] as string) : name;
}
