// Data that leaves the machine: per segment, which network client runs, whether it sends data (a
// body, an upload, a message, a copy, socket input), where to, and whether that is another machine.
// Dispatch is on the program name first, so a segment that is not a network client costs one lookup
// (and a glance at its redirections for bash's /dev/tcp).

import { databaseEgress } from './net-databases.js';
import { curlEgress, httpieEgress, httpxEgress, lwpEgress, wgetEgress } from './net-http.js';
import {
  cloudMessageEgress,
  forgeEgress,
  gitMailEgress,
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

/** Whether `program` is a network client egress is computed for. */
export function isNetProgram(program: string): boolean {
  return Object.hasOwn(READERS, program);
}

/**
 * The egress of one segment, or undefined when it sends nothing anywhere. `rerouted` tells whether
 * the command text assigns a proxy or resolver variable that this segment may see.
 */
export function egressOf(seg: ShellSegment, rerouted: () => boolean): ShellEgress | undefined {
  const reader = Object.hasOwn(READERS, seg.program) ? READERS[seg.program] : undefined;
  let egress = reader?.(seg);
  if (egress === undefined && seg.redirects.length > 0) egress = devTcpEgress(seg);
  if (egress === undefined) return undefined;
  if (!egress.remote && (seg.assignments.some((a) => REROUTING.test(a)) || rerouted())) egress.remote = true;
  return egress;
}
