// Look-alike folding applied to the whole command before parsing, so that an em dash, a
// non-breaking space or a fullwidth letter cannot smuggle a destructive command past a rule.

const DASHES: Record<string, string> = {
  '\u2014': '--', // em dash: what "smart punctuation" makes of `--`
  '\u2015': '--',
  '\u2013': '-', // en dash
  '\u2012': '-',
  '\u2010': '-',
  '\u2011': '-',
  '\u2212': '-',
  '\uFE63': '-',
  '\uFF0D': '-',
};

/** Cyrillic and Greek letters that render like Latin ones (only folded in program names). */
const HOMOGLYPHS: Record<string, string> = {
  а: 'a',
  в: 'b',
  е: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  і: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ɡ: 'g',
  ο: 'o',
  α: 'a',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ε: 'e',
};

const SPECIAL =
  /[\u00A0\u1680\u2000-\u200D\u2010-\u2015\u2028\u2029\u202F\u205F\u2060\u2212\u3000\uFE63\uFEFF\uFF01-\uFF5E]/;

// With the u flag a surrogate class matches only unpaired halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

export interface Normalised {
  text: string;
  /** Lone surrogates were replaced: the text is not what a shell would receive. */
  invalid: boolean;
}

/** Fold look-alikes: dashes, exotic spaces, zero-width characters, fullwidth ASCII; flag lone surrogates. */
export function normalizeCommand(input: string): Normalised {
  let invalid = false;
  let text = input;
  if (LONE_SURROGATE.test(text)) {
    invalid = true;
    text = text.replace(LONE_SURROGATES, '\uFFFD');
  }
  if (!SPECIAL.test(text)) return { text, invalid };
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    const dash = DASHES[ch];
    if (dash !== undefined) out += dash;
    else if (code === 0x200b || code === 0x200c || code === 0x200d || code === 0x2060 || code === 0xfeff)
      continue;
    else if (code === 0x2028 || code === 0x2029) out += '\n';
    else if (code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x202f)
      out += ' ';
    else if (code === 0x205f || code === 0x3000) out += ' ';
    else if (code >= 0xff01 && code <= 0xff5e) out += String.fromCharCode(code - 0xfee0);
    else out += ch;
  }
  return { text: out, invalid };
}

/**
 * GNU tools as Homebrew (and some BSD ports) install them beside the system's own, with a `g` in
 * front: `gdd`, `gfind`, `gshred`, `gtee`, `gsed`, `gmake`; and uutils' Rust coreutils as `urm` or
 * `uu-rm`. They are the same programs, read as such.
 */
const COREUTILS = new Set(
  (
    '[ b2sum base32 base64 basename basenc cat chcon chgrp chmod chown chroot cksum comm cp csplit cut ' +
    'date dd df dir dircolors dirname du echo env expand expr factor false fmt fold groups head hostid id ' +
    'install join kill link ln logname ls md5sum mkdir mkfifo mknod mktemp mv nice nl nohup nproc numfmt ' +
    'od paste pathchk pinky pr printenv printf ptx pwd readlink realpath rm rmdir runcon seq sha1sum ' +
    'sha224sum sha256sum sha384sum sha512sum shred shuf sleep sort split stat stdbuf stty sum sync tac ' +
    'tail tee test timeout touch tr true truncate tsort tty uname unexpand uniq unlink uptime users vdir ' +
    'wc who whoami yes'
  ).split(' '),
);
const GNU_PREFIXED = new Set([
  ...COREUTILS,
  // findutils, sed, tar, grep, make, patch, which, indent
  ...'find xargs locate updatedb sed tar grep egrep fgrep make patch which indent'.split(' '),
]);

/** Words normalised before: a command asks for the same few many times (every handler, every reading). */
const NORMALIZED = new Map<string, string>();
const MAX_NORMALIZED = 4096;

/** Normalise a program word: basename, lower case, `.exe`-style suffix dropped, homoglyphs folded, GNU's `g` prefix dropped. */
export function normalizeProgram(word: string): string {
  let name = NORMALIZED.get(word);
  if (name === undefined) {
    name = normalizeWord(word);
    if (NORMALIZED.size >= MAX_NORMALIZED) NORMALIZED.clear();
    NORMALIZED.set(word, name);
  }
  return name;
}

function normalizeWord(word: string): string {
  // An unresolved program keeps its text: its basename would be meaningless.
  if (word.includes('$') || word.includes('`')) return word.toLowerCase();
  // zsh expands `=npm` in a word's first place to npm's path (EQUALS, on by default).
  let name = /^=[A-Za-z_]/.test(word) ? word.slice(1) : word;
  const cut = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  if (cut >= 0 && cut < name.length - 1) name = name.slice(cut + 1);
  name = name.toLowerCase();
  if (/[^\x00-\x7f]/.test(name)) {
    let folded = '';
    for (const ch of name) folded += HOMOGLYPHS[ch] ?? ch;
    name = folded;
  }
  name = name.replace(/\.(exe|cmd|bat|com)$/, '');
  if (name.startsWith('g') && GNU_PREFIXED.has(name.slice(1))) return name.slice(1);
  // uutils' coreutils, installed as `urm` (Homebrew) or `uu-rm` (Arch, Debian).
  const uutils = /^(uu-|u)(.+)$/.exec(name)?.[2];
  return uutils !== undefined && COREUTILS.has(uutils) ? uutils : name;
}
