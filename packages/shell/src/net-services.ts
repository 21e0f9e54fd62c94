// What service CLIs and mail senders post: gh/glab/hub creating gists, issues, comments, reviews,
// releases or API writes, or starting workflows; issue trackers (acli, jira, linear, tea, fj) creating,
// commenting or editing; Hugging Face uploads; Slack CLIs
// sending messages or files; cloud CLIs sending email, SMS or notifications (aws ses|sns|pinpoint,
// az communication, twilio); mail, mailx, sendmail, mutt, msmtp and swaks sending a message. List and view forms are reads and produce nothing here.
import { optionModel, parseOptions } from './option-model.js';
import { own } from './own.js';
import type { ShellEgress, ShellSegment } from './types.js';

/** `group verb` pairs that post, per forge CLI (aliases included). */
const POSTING: Record<string, ReadonlySet<string>> = {
  gh: new Set(
    (
      'gist:create gist:new gist:edit issue:create issue:new issue:comment issue:edit pr:create pr:new ' +
      'pr:comment pr:review pr:edit pr:merge release:create release:new release:upload release:edit ' +
      'repo:create repo:new secret:set variable:set ssh-key:add gpg-key:add ' +
      // Runs a workflow (a deploy), copies files to a codespace, or resets a fork's branch to another.
      'workflow:run workflow:enable run:rerun codespace:cp repo:sync'
    ).split(' '),
  ),
  glab: new Set(
    (
      'issue:create issue:new issue:note issue:update mr:create mr:new mr:note mr:update mr:merge ' +
      'mr:approve release:create release:new release:upload snippet:create snippet:new repo:create ' +
      'variable:set variable:update ci:run ci:trigger ci:retry'
    ).split(' '),
  ),
  hub: new Set('issue:create release:create release:edit gist:create'.split(' ')),
};
/** Whole commands that post with no verb after them. */
const POSTING_ONE: Record<string, ReadonlySet<string>> = {
  hub: new Set(['pull-request', 'create']),
};
/** A state change that carries a comment only with `-c/--comment`. */
const COMMENTING = /^(issue|pr|mr):(close|reopen)$/;
/** Settings that publish what was private or grant access: a repository made public, a deploy key added. */
const EXPOSING = (seg: ShellSegment, pair: string): boolean =>
  (pair === 'repo:edit' && seg.flags.some((f) => f.startsWith('--visibility'))) ||
  (pair === 'repo:deploy-key' && seg.path[2] === 'add');

/** Issue-tracker CLIs (Atlassian's acli, jira-cli, go-jira): verbs among the first command words that post or change. */
const TRACKER_VERBS = new Set(
  'create add update edit transition assign delete archive clone move link'.split(' '),
);
const TRACKER_DEPTH: Record<string, number> = { acli: 4, jira: 3, linear: 3, tea: 2, fj: 3 };

/** acli / jira: creating, commenting on, editing or moving an issue or page sends it to the service. */
export function trackerEgress(seg: ShellSegment): ShellEgress | undefined {
  const depth = own(TRACKER_DEPTH, seg.program) ?? 0;
  // go-jira's `jira comment KEY` and Gitea's `tea comment N` post; elsewhere `comment` is the noun
  // before a verb (`comment list`).
  const comment = (seg.program === 'jira' || seg.program === 'tea') && seg.path[0] === 'comment';
  if (!comment && !seg.path.slice(0, depth).some((w) => TRACKER_VERBS.has(w))) return undefined;
  return { kind: 'publish', data: true, hosts: [], remote: true };
}

const API = optionModel(
  'X|method= f|raw-field= F|field= H|header= input= q|jq= t|template= hostname= p|preview= cache= ' +
    'i|include paginate slurp silent verbose',
);

/** gh, glab, hub: posting subcommands and `api` calls that write. */
export function forgeEgress(seg: ShellSegment): ShellEgress | undefined {
  const [group, verb] = seg.path;
  if (group === undefined) return undefined;
  if (group === 'api') return apiEgress(seg);
  const pair = `${group}:${verb ?? ''}`;
  const posts =
    own(POSTING, seg.program)?.has(pair) ||
    own(POSTING_ONE, seg.program)?.has(group) ||
    (COMMENTING.test(pair) && seg.flags.some((f) => /^(-c|--comment)(=|$)/.test(f))) ||
    (seg.program !== 'hub' && EXPOSING(seg, pair));
  if (!posts) return undefined;
  return { kind: 'publish', data: true, hosts: [], remote: true };
}

function apiEgress(seg: ShellSegment): ShellEgress {
  const sub = seg.args.findIndex((a) => a.toLowerCase() === 'api');
  const parsed = parseOptions(API, seg.args.slice(sub + 1));
  const c = parsed.canonical;
  const fields = c.filter((o) => /^--(raw-field|field)=/.test(o));
  const input = c.some((o) => o.startsWith('--input'));
  const explicit = c
    .filter((o) => o.startsWith('--method='))
    .pop()
    ?.slice(9)
    .toUpperCase();
  // gh and glab send POST once a field or an input body is given, GET otherwise.
  const method = explicit ?? (fields.length > 0 || input ? 'POST' : 'GET');
  const endpoint = parsed.positionals[0]?.toLowerCase() ?? '';
  let data: boolean;
  if (endpoint === 'graphql') {
    // A GraphQL query reads; a mutation (or a body from a file) writes.
    data = input || fields.some((f) => /\bmutation\b/i.test(f) || /=@/.test(f));
  } else {
    data =
      input || /^(POST|PUT|PATCH|DELETE)$/.test(method) || fields.some((f) => /^--field=[^=]*=@/.test(f));
  }
  return { kind: 'publish', method, data, hosts: [], remote: true };
}

/**
 * Cloud CLI commands that send a message to people (email, SMS, a call, a topic's subscribers), by
 * their command path: once delivered it cannot be recalled, like mail.
 */
const CLOUD_SENDS: Record<string, readonly string[]> = {
  aws: [
    'ses send-email',
    'ses send-raw-email',
    'ses send-templated-email',
    'ses send-bulk-templated-email',
    'sesv2 send-email',
    'sesv2 send-bulk-email',
    'sns publish',
    'sns publish-batch',
    'pinpoint send-messages',
    'pinpoint send-users-messages',
    'pinpoint-sms-voice-v2 send-text-message',
    'pinpoint-sms-voice-v2 send-voice-message',
  ],
  // Azure DevOps: a pull request or work item created or changed is posted to the team's board.
  az: [
    'communication email send',
    'communication sms send',
    'repos pr create',
    'repos pr update',
    'boards work-item create',
    'boards work-item update',
  ],
  twilio: ['api:core:messages:create', 'api:core:calls:create'],
};

/** aws, az, twilio: a command that sends a message to people. */
export function cloudMessageEgress(seg: ShellSegment): ShellEgress | undefined {
  const commands = Object.hasOwn(CLOUD_SENDS, seg.program) ? CLOUD_SENDS[seg.program] : undefined;
  const sends = commands?.some((command) => {
    const words = command.split(' ');
    return words.every((w, k) => seg.path[k] === w);
  });
  return sends && !helpOnly(seg) ? { kind: 'publish', data: true, hosts: [], remote: true } : undefined;
}

const SLACK_VERBS =
  /^(send|post|upload|chat|file|files|message|messages|msg|reply|postmessage|chat\.postmessage|files\.upload)$/;

/** Hugging Face's CLI: an upload (or `repo create`) puts files on the hub, public unless made private. */
export function hubEgress(seg: ShellSegment): ShellEgress | undefined {
  const [group, verb] = seg.path;
  const posts =
    group === 'upload' || group === 'upload-large-folder' || (group === 'repo' && verb === 'create');
  const asks = seg.flags.some((f) => f === '-h' || f === '--help');
  return posts && !asks ? { kind: 'publish', data: true, hosts: [], remote: true } : undefined;
}

/** Slack CLIs: slackcat always posts; slack/slack-cli post with a sending verb. */
export function slackEgress(seg: ShellSegment): ShellEgress | undefined {
  const posts =
    seg.program === 'slackcat' ? !helpOnly(seg) : seg.path.slice(0, 3).some((p) => SLACK_VERBS.test(p));
  return posts ? { kind: 'publish', data: true, hosts: [], remote: true } : undefined;
}

const MAILX = optionModel(
  's|subject= a|attach= b|bcc= c|cc= r|from= S|set= q|quote= A|account= u|user= f|file? t|to ' +
    'H|headers e|exists N|no-header i|ignore n|noinit v|verbose d|debug E|discard-empty-messages ' +
    'L|search= F M= m= T= h|help V|version',
);
const MUTT = optionModel('a= b= c= s= i= H= e= F= f= m= Q= D A= d= n R y p Z z x v V h E');
const READ_ONLY_SENDMAIL = /^-(b[pvtDhHP]|q)/;
const READ_ONLY_MSMTP = /^(--serverinfo|-S|--rmqueue|--pretend|-P|--version|--help|-h)$/;

/** Mail senders: a message goes out when recipients are given (or read from the message). */
export function mailEgress(seg: ShellSegment): ShellEgress | undefined {
  const sending = mailSends(seg);
  return sending ? { kind: 'mail', data: true, hosts: mailHosts(seg), remote: true } : undefined;
}

function mailSends(seg: ShellSegment): boolean {
  switch (seg.program) {
    case 'sendmail':
    case 'exim':
    case 'postfix-sendmail':
      return !seg.args.some((a) => READ_ONLY_SENDMAIL.test(a)) && !helpOnly(seg);
    case 'msmtp':
      return !seg.args.some((a) => READ_ONLY_MSMTP.test(a));
    case 'swaks':
      return !helpOnly(seg);
    case 'mutt':
    case 'neomutt': {
      const p = parseOptions(MUTT, seg.args);
      return p.positionals.length > 0 || p.canonical.includes('-H');
    }
    default: {
      // mail, mailx, Mail, s-nail, nail: recipients as operands or options, or -t from the headers.
      const p = parseOptions(MAILX, seg.args);
      if (p.canonical.includes('--file') || p.canonical.some((o) => o.startsWith('--file='))) return false;
      return p.positionals.length > 0 || p.canonical.some((o) => /^--(to|bcc|cc)(=|$)/.test(o));
    }
  }
}

/**
 * git's own mail senders: `git send-email` mails patches (unless `--dry-run` or `--dump-aliases`),
 * `git imap-send` uploads them to an IMAP drafts folder on a server. Other git commands send no mail.
 */
export function gitMailEgress(seg: ShellSegment): ShellEgress | undefined {
  const sub = seg.subcommand;
  if (sub !== 'send-email' && sub !== 'imap-send') return undefined;
  const rest = seg.args.slice(seg.args.indexOf(sub) + 1);
  const end = rest.indexOf('--');
  const options = end < 0 ? rest : rest.slice(0, end);
  if (options.some((a) => /^--(dry-run|dump-aliases|help)$/.test(a) || a === '-h')) return undefined;
  return { kind: 'mail', data: true, hosts: [], remote: true };
}

function mailHosts(seg: ShellSegment): string[] {
  const hosts: string[] = [];
  for (let i = 0; i < seg.args.length; i++) {
    const a = seg.args[i] as string;
    const m = /^--(server|host)=(.+)$/.exec(a);
    if (m) hosts.push(m[2] as string);
    else if (/^(-s|--server|--host)$/.test(a) && /^(swaks|msmtp)$/.test(seg.program)) {
      const v = seg.args[i + 1];
      if (v !== undefined) hosts.push(v);
    }
  }
  return hosts;
}

function helpOnly(seg: ShellSegment): boolean {
  return seg.args.length > 0 && seg.args.every((a) => /^(-h|--help|-V|--version)$/.test(a));
}
