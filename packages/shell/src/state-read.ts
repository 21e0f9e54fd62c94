// Whether a command's output can say anything about the state of the world. `echo x | tr a-z A-Z`,
// `printf`, `cat <<EOF`, `python3 -c 'print(...)'` print a function of their own words: whatever
// they show, the agent wrote it. Such output is recorded but can never be cited as evidence. A read
// is citable when some simple command in it reads state (a file, a repository, a database, a
// service) and no simple command adds text of its own to what the command prints.
import type { ShellFacts, ShellSegment } from './types.js';

/** Programs whose output is a function of their arguments (or of nothing outside the command). */
const GENERATORS = new Set(
  (
    'echo printf yes seq true false : printenv env date basename dirname realpath readlink expr sleep ' +
    'cal factor shuf uuidgen mktemp jot banner figlet cowsay toilet'
  ).split(' '),
);

/** Programs that transform their input: their output says what their input says. */
const FILTERS = new Set(
  (
    'cat tac tr sed awk gawk mawk nawk cut sort uniq head tail rev fold fmt nl paste column base64 ' +
    'base32 basenc xxd od hexdump md5sum sha1sum sha224sum sha256sum sha384sum sha512sum b2sum cksum ' +
    'wc grep egrep fgrep rg jq yq iconv tee bc dc numfmt expand unexpand strings sponge gzip gunzip ' +
    'zcat xz openssl python python3 node perl ruby php lua deno bun'
  ).split(' '),
);

/** Filters whose first operand is a script or pattern rather than a file, unless -e/-f gave it. */
const SCRIPT_FIRST = new Set('sed awk gawk mawk nawk grep egrep fgrep rg jq yq'.split(' '));
const SCRIPT_OPTIONS = new Set(['-e', '-f', '--expression', '--file', '--regexp', '--from-file']);
/** Commands that print nothing of their own (they only change where or how later commands run). */
const SILENT = new Set([
  'cd',
  'pushd',
  'popd',
  'export',
  'set',
  'unset',
  'shopt',
  'umask',
  'local',
  'declare',
]);
/** Interpreters given code inline: what they print is what the agent wrote (unless the code reads files). */
const INLINE_CODE = /^(-c|-e|-E|--eval|-p|--print|-r)$/;

export interface StateRead {
  /** Some simple command reads state outside the command line. */
  state: boolean;
  /** Some simple command prints text of its own into the output (echo, printf, a literal heredoc, inline code). */
  own_output: boolean;
  /** The first simple command that prints its own words, for messages. */
  own_output_from?: string;
}

/** How a command's output relates to the state of the world (see the module comment). */
export function stateRead(facts: ShellFacts): StateRead {
  let state = false;
  let own: ShellSegment | undefined;
  for (const segment of facts.segments) {
    if (segment.via.includes('quoted')) continue; // a speculative reading of a quoted string
    const kind = segmentKind(segment);
    if (kind === 'state') state = true;
    else if (kind === 'own' && printsToOutput(segment)) own ??= segment;
  }
  const result: StateRead = { state, own_output: own !== undefined };
  if (own) result.own_output_from = own.text.slice(0, 120);
  return result;
}

type Kind = 'state' | 'own' | 'neutral';

function segmentKind(segment: ShellSegment): Kind {
  const { program } = segment;
  if (program === '' || SILENT.has(program)) return 'neutral';
  if (readsFileRedirect(segment)) return 'state';
  if (GENERATORS.has(program)) return 'own';
  if (!FILTERS.has(program)) return 'state';
  if (segment.payload !== undefined && segment.flags.some((f) => INLINE_CODE.test(f))) return 'own';
  if (fileOperands(segment).some((f) => f !== '-')) return 'state';
  // No files: a filter of its stdin. Static text (a heredoc, a here-string, echo piped in) is the
  // agent's own; another command's output is whatever that command is.
  if (segment.stdin_from === 'pipe-dynamic') return 'neutral';
  return 'own';
}

function readsFileRedirect(segment: ShellSegment): boolean {
  return segment.redirects.some((r) => (r.op === '<' || r.op === '<>') && r.target !== '');
}

function fileOperands(segment: ShellSegment): string[] {
  const { program, positionals, flags } = segment;
  if (program === 'tr' || program === 'expr') return [];
  const scriptGiven = flags.some((f) => SCRIPT_OPTIONS.has(f.split('=')[0] ?? f));
  return SCRIPT_FIRST.has(program) && !scriptGiven ? positionals.slice(1) : positionals;
}

/** Whether a segment's stdout reaches the command's output (not a substitution, not redirected away). */
function printsToOutput(segment: ShellSegment): boolean {
  if (segment.via.some((v) => v === '$()' || v === '<()')) return false;
  return !segment.redirects.some(
    (r) => (r.op === '>' || r.op === '>>' || r.op === '>|') && (r.fd === undefined || r.fd === 1),
  );
}
