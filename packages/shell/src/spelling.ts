// commandSpelling: a command line with its quoting taken out, so that every way of writing the same
// words (single or double quotes, backslashes, $'…', mixtures) reads as one thing, while anything
// that can make the shell run something else stays distinct. Call digests are taken over it.
import type { Word } from './ast.js';
import { createBudget, LimitExceeded, ShellSyntaxError } from './budget.js';
import { Parser } from './parser.js';

/**
 * One piece of the spelling: the text the parser skipped between words (operators, redirection
 * operators, reserved words, comments, heredoc bodies), a word with its quotes removed, or a word
 * kept exactly as written where quoting changes what it means.
 */
export type SpellingToken =
  | { op: string }
  | { word: Array<string | { expand: string; quoted: boolean }> }
  | { raw: string };

const ASSIGNMENT = /^[A-Za-z0-9_]+(\[[^\]]*\])?\+?=/;
/** Unquoted, these make a word a pattern or a brace expansion: quoting them changes the words. */
const PATTERN = /[*?[{]/;
const MAX_LENGTH = 32 * 1024;

interface Span {
  start: number;
  end: number;
  word: Word;
}

/** The parser, noting where each word it reads starts and ends. */
class SpanParser extends Parser {
  readonly spans: Span[] = [];
  protected override readWord(): Word | null {
    const start = this.pos;
    const word = super.readWord();
    if (word) this.spans.push({ start, end: this.pos, word });
    return word;
  }
}

/**
 * The spelling-free form of a command, or undefined when it does not parse cleanly (then callers
 * use the literal text). Two commands get the same tokens only when they run the same words.
 */
export function commandSpelling(command: string): SpellingToken[] | undefined {
  if (typeof command !== 'string' || command.length > MAX_LENGTH || command.includes('\0')) return undefined;
  // A generous deadline: the same text must give the same answer on a busy machine.
  const budget = createBudget(24, 500);
  const parser = new SpanParser(command, budget);
  try {
    parser.parseScript();
  } catch (error) {
    if (error instanceof ShellSyntaxError || error instanceof LimitExceeded) return undefined;
    return undefined;
  }
  if (budget.soft.length > 0) return undefined;
  const tokens: SpellingToken[] = [];
  let at = 0;
  let literalOnly = false;
  for (const span of outermost(parser.spans)) {
    const gap = command.slice(at, span.start);
    pushGap(tokens, gap);
    // Inside `[[ … ]]` quoting decides what is a pattern or a regex: such words stay as written.
    if (/(^|[\s;&|(!])\[\[(\s|$)/.test(gap)) literalOnly = true;
    const heredocDelimiter = /(^|[^<])<<-?\s*$/.test(gap);
    tokens.push(literalOnly || heredocDelimiter ? { raw: span.word.raw } : wordToken(span.word));
    at = span.end;
  }
  pushGap(tokens, command.slice(at));
  return tokens;
}

/** Words read inside another word's substitution are part of that word. */
function outermost(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  let end = -1;
  for (const span of sorted) {
    if (span.start < end) continue;
    out.push(span);
    end = span.end;
  }
  return out;
}

/**
 * Spaces and tabs between words only separate them; a gap holding a newline may hold a heredoc body
 * and is kept whole (so is a carriage return, which bash reads as part of a word).
 */
function pushGap(tokens: SpellingToken[], gap: string): void {
  const op = gap.includes('\n') ? gap : gap.replace(/[ \t]+/g, ' ').replace(/^ | $/g, '');
  if (op !== '') tokens.push({ op });
}

function wordToken(word: Word): SpellingToken {
  if (!unquotingKeepsMeaning(word)) return { raw: word.raw };
  const out: Array<string | { expand: string; quoted: boolean }> = [];
  let text = '';
  for (const part of word.parts) {
    if (part.kind === 'lit') {
      text += part.text;
      continue;
    }
    // Strings and expansions alternate, so the form is unambiguous.
    out.push(text);
    text = '';
    out.push({ expand: part.src, quoted: part.quoted });
  }
  out.push(text);
  return { word: out };
}

/**
 * Whether the word means the same with its quotes removed: not when an unquoted character makes it
 * a glob or brace pattern, a tilde expansion, or an assignment (`A=b` runs nothing, `'A=b'` runs A=b).
 */
function unquotingKeepsMeaning(word: Word): boolean {
  const first = word.parts[0];
  if (first?.kind === 'lit' && !first.quoted && ASSIGNMENT.test(first.text)) return false;
  let previous = '';
  for (const [index, part] of word.parts.entries()) {
    if (part.kind !== 'lit') {
      previous = '';
      continue;
    }
    if (part.quoted) {
      previous = part.text.slice(-1);
      continue;
    }
    if (PATTERN.test(part.text)) return false;
    for (let i = 0; i < part.text.length; i++) {
      if (part.text[i] !== '~') continue;
      const before = i > 0 ? part.text[i - 1] : index === 0 ? '' : previous;
      // A tilde expands at the start of a word and after `=` or `:` (assignments, --opt=~/x).
      if (before === '' || before === '=' || before === ':') return false;
    }
    previous = part.text.slice(-1);
  }
  return true;
}
