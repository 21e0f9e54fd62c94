// Where bash evaluates text as arithmetic, and what that text may run. Evaluation is recursive: a
// value reading `a[$(cmd)]` runs cmd when a subscript, an offset, `(( ))` or `[[ … -eq … ]]` reaches
// it, and single quotes do not quote there. So a substitution in such text is code unless it only
// prints a number, and so is a variable whose value the command does not show (a line `read` from a
// file, a command's output, a loop over file names) once arithmetic evaluates it.

/** A `$(…)` (at the start of the text) whose output is a number and nothing else. */
const NUMERIC_SUBSTITUTION = new RegExp(
  String.raw`^\$\(\s*(?:nproc(?: --all)?|date \+%s|id -[ug]|getconf _NPROCESSORS_ONLN|seq(?: +-?\d+){1,3}|` +
    // `… | wc -l`, `wc -c < f`: a count alone (no file name after it); the pipe's stages hold no
    // substitution, list or subshell of their own.
    String.raw`(?:[^()\x60$;&|\n]*\|(?!\|))*\s*wc +-[lcwm](?: *< *[\w./-]+)?)\s*\)`,
);
const NUMERIC_SUBSTITUTIONS = new RegExp(NUMERIC_SUBSTITUTION.source.slice(1), 'g');

/**
 * Whether arithmetic text holds something that runs: a substitution not known to print a number, a
 * backquote, a `$'…'` or `$"…"` (decoded first, then evaluated), an escaped `$` or backquote.
 */
export function arithmeticCode(text: string): boolean {
  if (/`|\$['"]|\\[$`]/.test(text)) return true;
  for (const m of text.matchAll(/\$\((?!\()/g))
    if (!NUMERIC_SUBSTITUTION.test(text.slice(m.index))) return true;
  return false;
}

/** Whether an assigned value (as expanded) holds output the command does not show. */
export function unshownValue(value: string): boolean {
  return /[<>]\(/.test(value) || arithmeticCode(value.replace(/\$['"]|\\[$`]/g, ''));
}

/**
 * The variables arithmetic text reads: bare names and `$x`/`${x…}`; not a length (`${#x}`), nor
 * what a numeric substitution reads.
 */
export function arithmeticNames(text: string): string[] {
  const bare = text
    .replace(NUMERIC_SUBSTITUTIONS, ' ')
    .replace(/\$\{#[A-Za-z_]\w*(\[[@*]\])?\}/g, ' ')
    .replace(/\$[#?$!]/g, ' ');
  return [...new Set(bare.match(/(?<![\w#])[A-Za-z_]\w*/g) ?? [])];
}

/** Variables a value refers to (`$x`, `${x%…}`, `${!x}`): it holds what they hold. */
export function referencedNames(value: string): string[] {
  return [...value.matchAll(/\$\{?[!#]?([A-Za-z_]\w*)/g)].map((m) => m[1] as string);
}

/** `${`, an optional `!`/`#`, and the parameter's name (group 1 for a variable). */
const BRACE_HEAD = /^\$\{[!#]?(?:([A-Za-z_]\w*)|\d+|[@*#?$!-])/;

/** Index of the close matching the opener just before `from` (`]`, `}`, `)`), or the text's end. */
function closing(text: string, from: number, open: string, close: string): number {
  let depth = 0;
  for (let p = from; p < text.length; p++) {
    const c = text[p];
    if (c === '\\') p++;
    else if (c === open) depth++;
    else if (c === close && depth-- === 0) return p;
  }
  return text.length;
}

/**
 * The arithmetic parts of a `${…}` at the start of `text`: the subscript of `${NAME[…]…}` (with any
 * prefix or operator) and a substring's `OFFSET:LENGTH` (`${x:1}`, `${@:…}`), as [start, end) ranges;
 * an unclosed range ends at the text's end.
 */
function braceRanges(text: string): [number, number][] {
  const head = BRACE_HEAD.exec(text);
  if (!head) return [];
  const ranges: [number, number][] = [];
  let at = head[0].length;
  if (head[1] !== undefined && text[at] === '[') {
    const end = closing(text, at + 1, '[', ']');
    ranges.push([at + 1, end]);
    at = end + 1;
  }
  if (text[at] === ':' && !/[-=?+]/.test(text[at + 1] ?? ''))
    ranges.push([at + 1, closing(text, at + 1, '{', '}')]);
  return ranges;
}

/** Whether the end of `prefix` (a `${…` read so far) lies in a part bash evaluates as arithmetic. */
export function inArithmetic(prefix: string): boolean {
  return braceRanges(prefix).some(([, end]) => end >= prefix.length);
}

/**
 * The texts bash evaluates as arithmetic in an expansion's source, nested ones included: each
 * `$((…))` and `$[…]` body, subscript and substring offset.
 */
export function arithmeticTexts(src: string): string[] {
  const texts: string[] = [];
  for (const m of src.matchAll(/\$(\(\(|\[|\{)/g)) {
    const from = m.index + m[0].length;
    if (m[1] === '((') texts.push(src.slice(from, closing(src, from, '(', ')')));
    else if (m[1] === '[') texts.push(src.slice(from, closing(src, from, '[', ']')));
    else
      for (const [start, end] of braceRanges(src.slice(m.index)))
        texts.push(src.slice(m.index + start, m.index + end));
  }
  return texts;
}

/** `${!NAME}` (any operator, not `${!NAME*}`/`${!NAME[@]}`): NAME's value names the variable, subscript and all. */
export function indirectNames(src: string): string[] {
  return [...src.matchAll(/\$\{!([A-Za-z_]\w*)(?![*@]\}|\[[@*]\]\})/g)].map((m) => m[1] as string);
}

/**
 * Values the command does not show and where arithmetic evaluates them, gathered over the whole
 * walk (a loop reads a line after the body that evaluates it is written) and settled at its end.
 */
export class ArithmeticFlow {
  /** Variables assigned a value the command does not show, with the text that assigned it. */
  private readonly unshown = new Map<string, string>();
  /** `y=$x`: y holds what x holds. */
  private readonly derived: [string, string][] = [];
  /** Variables arithmetic evaluates (a `declare -i` variable is evaluated on each assignment). */
  private readonly uses: [string, string][] = [];

  /** NAME gets a value the command does not show (`read NAME`, a loop over file names). */
  unknown(name: string, source: string): void {
    if (!this.unshown.has(name)) this.unshown.set(name, source);
  }

  /** `NAME=value` as expanded; `unresolved` when the value was not static. */
  assign(name: string, value: string, unresolved: boolean, source: string): void {
    if (!unresolved) return;
    if (unshownValue(value)) this.unknown(name, source);
    for (const from of referencedNames(value)) this.derived.push([name, from]);
  }

  /** Arithmetic evaluates NAME's value. */
  use(name: string, source: string): void {
    this.uses.push([name, source]);
  }

  /** The texts where arithmetic evaluates a value the command does not show. */
  findings(): string[] {
    for (let grew = true; grew; ) {
      grew = false;
      for (const [to, from] of this.derived) {
        const source = this.unshown.get(from);
        if (source !== undefined && !this.unshown.has(to)) {
          this.unshown.set(to, source);
          grew = true;
        }
      }
    }
    return [...new Set(this.uses.filter(([name]) => this.unshown.has(name)).map(([, source]) => source))];
  }
}
