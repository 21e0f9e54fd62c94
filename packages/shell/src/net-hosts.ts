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
