// The operands a network client takes as where to connect or what to fetch: a remote, a URL, a
// registry, a package, an image, a host. Whatever such a word holds reaches a host, even when it is
// wholly a command's output (`git ls-remote "$(cat u)$(cat .env)"`), which no URL shape shows.
import type { ShellSegment } from './types.js';

/**
 * Per client, the command paths (leading positionals) whose following positionals are references;
 * `''` takes every positional. Destinations and local files (a clone's directory) are not listed.
 */
const REFERENCE_PATHS: Readonly<Record<string, readonly string[]>> = {
  npm: [
    'install',
    'i',
    'in',
    'isntall',
    'add',
    'update',
    'up',
    'upgrade',
    'view',
    'v',
    'info',
    'show',
    'pack',
    'search',
    'dlx',
  ],
  pnpm: ['install', 'i', 'add', 'update', 'up', 'upgrade', 'view', 'info', 'dlx'],
  yarn: ['add', 'up', 'upgrade', 'info', 'dlx', 'global add', 'global upgrade'],
  bun: ['install', 'i', 'add', 'update', 'pm view', 'info'],
  deno: ['install', 'add', 'cache'],
  pip: ['install', 'download', 'wheel', 'index', 'search'],
  pip3: ['install', 'download', 'wheel', 'index', 'search'],
  pipx: ['install', 'run', 'inject', 'upgrade'],
  uv: ['add', 'pip install', 'tool install', 'tool run'],
  poetry: ['add', 'source add'],
  pdm: ['add'],
  conda: ['install', 'create', 'search'],
  mamba: ['install', 'create', 'search'],
  gem: ['install', 'fetch', 'search', 'specification'],
  bundle: ['add'],
  composer: ['require', 'create-project'],
  cargo: ['install', 'add', 'search'],
  go: ['get', 'install', 'mod download'],
  docker: ['pull', 'push', 'search', 'login', 'manifest'],
  podman: ['pull', 'push', 'search', 'login', 'manifest'],
  nerdctl: ['pull', 'push', 'login'],
  buildah: ['pull', 'push', 'from'],
  skopeo: ['inspect', 'copy'],
  crane: ['pull', 'push', 'copy', 'manifest', 'digest', 'ls'],
  oras: ['pull', 'push'],
  helm: ['install', 'upgrade', 'pull', 'show', 'template', 'repo add'],
  svn: ['checkout', 'co', 'export', 'ls', 'list', 'cat', 'info', 'log', 'import'],
  hg: ['clone', 'pull', 'push', 'incoming', 'in', 'outgoing', 'out'],
  fossil: ['clone', 'pull', 'push', 'sync'],
  nuget: ['install'],
  brew: ['install', 'fetch', 'tap'],
  'ssh-keyscan': [''],
  aria2c: [''],
  axel: [''],
  nmap: [''],
};

/** git: the repository operand of each command that talks to a remote (not a clone's directory). */
function gitReferences(seg: ShellSegment): string[] {
  const [command, first, second, third] = seg.positionals;
  const remote = seg.canonical?.find((o) => o.startsWith('--remote='))?.slice('--remote='.length);
  const words = remote === undefined ? [] : [remote];
  if (command === 'submodule' && first === 'add' && second !== undefined) words.push(second);
  else if (command === 'remote' && (first === 'add' || first === 'set-url') && third !== undefined)
    words.push(third);
  else if (command !== 'submodule' && command !== 'remote' && first !== undefined) words.push(first);
  return words;
}

/** The words of a network client that name where it connects or what it fetches, as written. */
export function referenceWords(seg: ShellSegment): string[] {
  if (seg.program === 'git') return gitReferences(seg);
  if (!Object.hasOwn(REFERENCE_PATHS, seg.program)) return [];
  for (const path of REFERENCE_PATHS[seg.program] as readonly string[]) {
    const lead = path === '' ? [] : path.split(' ');
    if (lead.every((word, k) => seg.positionals[k] === word)) return seg.positionals.slice(lead.length);
  }
  return [];
}
