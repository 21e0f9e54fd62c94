// Database clients that send a local file's contents, as data, to a server on another machine:
// `redis-cli -h HOST -x SET k < file` (stdin as the last argument), psql's `\copy … FROM 'file'` and
// `\lo_import`, MySQL's `LOAD DATA LOCAL INFILE`, ClickHouse's `INSERT … FROM INFILE`. SQL run from a
// file (`psql -h HOST -f schema.sql`) is the client's work, judged as SQL, not an upload.
import { isLoopback, stripPort } from './net-hosts.js';
import type { ShellEgress, ShellSegment } from './types.js';

/** Each client's host options (separate or attached), and how it carries a file as data. */
const HOST_OPTIONS: Record<string, RegExp> = {
  'redis-cli': /^-h$/,
  'valkey-cli': /^-h$/,
  'keydb-cli': /^-h$/,
  psql: /^(-h|--host)$/,
  mysql: /^(-h|--host)$/,
  mariadb: /^(-h|--host)$/,
  'clickhouse-client': /^(-h|--host)$/,
};

/** SQL and client commands whose data is a local file. */
const FILE_DATA =
  /\\copy\b[^;]*\bfrom\s+(?!stdin\b|pstdin\b|program\b)|\\lo_import\b|\bload\s+data\s+local\s+infile\b|\bfrom\s+infile\b/i;

export function databaseEgress(seg: ShellSegment): ShellEgress | undefined {
  const hostOption = HOST_OPTIONS[seg.program];
  if (hostOption === undefined) return undefined;
  const hosts: string[] = [];
  seg.args.forEach((arg, k) => {
    if (hostOption.test(arg) && seg.args[k + 1] !== undefined)
      hosts.push(stripPort(seg.args[k + 1] as string));
    const eq = /^--host=(.+)$/.exec(arg) ?? /^-h(.+)$/.exec(arg);
    if (eq) hosts.push(stripPort(eq[1] as string));
    // A connection URI (`postgres://user@host/db`, `mysql://…`) names the host too.
    const uri = /^[a-z][\w+.-]*:\/\/(?:[^@/]*@)?([^/:?]+)/i.exec(arg);
    if (uri && /^(postgres(ql)?|mysql|mariadb|redis|rediss|clickhouse):/i.test(arg))
      hosts.push(uri[1] as string);
  });
  if (hosts.length === 0 || hosts.every(isLoopback)) return undefined;
  const redisValue = /-cli$/.test(seg.program) && seg.args.includes('-x') && seg.stdin_from !== undefined;
  const fileData = FILE_DATA.test(seg.payload ?? '') || FILE_DATA.test(seg.args.join(' '));
  if (!redisValue && !fileData) return undefined;
  return { kind: 'copy', data: true, hosts, remote: true };
}
