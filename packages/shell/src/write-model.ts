// Which files a program writes, truncates, creates, moves or deletes, per program, as data: the
// options that take a value, the options whose value is written, and which operands are written.
// A few programs whose write depends on a mode (sed -i, tar -x/-c, find -delete, dd of=) carry a
// small function instead of an operand rule.
import { posix } from 'node:path';
import { GLOBAL_VALUE_OPTIONS } from './options.js';
import { own } from './own.js';
import type { Resolver } from './resolve.js';

export interface Option {
  name: string;
  value?: string;
  /** argv index of the value (or of the option, when the value is attached). */
  at: number;
}

export interface Scanned {
  argv: readonly string[];
  operands: number[];
  options: Option[];
  /** A mode-like word in option position (`chmod -x f`) was taken as the first operand. */
  has(name: string): boolean;
}

/** A path written: its text, the argv index it came from (to know whether it was resolved), or a default. */
export interface Found {
  text: string;
  at?: number;
  /** The path is only a directory under which unknown names are written. */
  unresolved?: boolean;
  /** The argv index of the operand the path's last name comes from (`cp SRC DIR/` writes DIR/NAME). */
  from?: number;
  /** The path's files are moved away (mv's sources, `tar --remove-files`): written by removal. */
  moved?: boolean;
  /**
   * The path may become a symbolic link the command makes (`ln -s`, `cp -s`): to this target, as
   * the link stores it, or null when the target or whether the link lands there cannot be told.
   */
  link?: string | null;
  /** The argv index of the word `link` comes from (an unresolved one tells no target). */
  linkFrom?: number;
  /** What the path holds now is removed and replaced (`ln -f`'s destination). */
  replaces?: boolean;
  /**
   * The argv index of a source whose tree lands at this path (`cp -r SRC DIR` at DIR/SRC, rsync's
   * `SRC/` at DEST): a file of the same name below it is replaced by the source's.
   */
  mirrors?: number;
}

export interface WriteModel {
  /** Options that take the next word as their value (long ones also as `--name=value`). */
  values?: string;
  /** Options whose value is a path written. */
  targets?: string;
  /** Option letters whose value is optional and only attached (`sed -i.bak`, `perl -pi`). */
  attached?: string;
  /** Options naming the directory the operands go into (`cp -t DIR`). */
  into?: string;
  /** Which operands are written. */
  operands?: 'all' | 'after-first' | 'first' | 'second' | 'into' | 'move' | 'link' | 'local-last' | 'none';
  /** Any of these options means nothing is written (`gzip -c`, `sqlite3 -readonly`). */
  readOnly?: string;
  /** Any of these options makes every operand a written path (`install -d`, `chmod --reference`). */
  allWith?: string;
  /** Other options the model asks about (`--decompress`), so that their abbreviations are read too. */
  flags?: string;
  /**
   * Target options whose file is replaced whole, as a download's output is (`wget -O`), and operands
   * so written (`replaces: 'operands'`: scp's local destination). A `custom` model marks its own
   * (Found.replaces).
   */
  replaces?: string;
  /** Options with which the program keeps what a `replaces` file holds (resuming, not clobbering). */
  keeps?: string;
  /** Words in option position that are really the first operand (`chmod -x file`). */
  modeLike?: RegExp;
  /** Programs whose writes depend on their mode (and, for copies into a directory, on what is there). */
  custom?: (s: Scanned, res: Resolver) => Found[];
}

const CP = { values: '-S --suffix', into: '-t --target-directory' };
/** Compressors' suffixes, for the file a decompression writes (`gzip -d q.sh.gz` writes q.sh). */
const COMPRESSED = /\.(gz|tgz|z|Z|xz|txz|lzma|bz2|tbz2?|zst|tzst|lz4|br|lz|lzo)$/;

/**
 * gzip and its kin: each operand is replaced by its compressed or decompressed twin. The operand
 * (removed or rewritten) and the twin are written; -k keeps the operand but still writes the twin.
 */
function compressor(suffix: string, decompresses = false): WriteModel {
  return {
    values: '-S --suffix -o --output -b --block-size -T --threads -L --level --format -F -C --check',
    targets: '-o --output',
    readOnly: '-c --stdout --to-stdout -t --test -l --list',
    flags: '--decompress --uncompress --keep',
    custom: (s) =>
      twins(
        s,
        decompresses || s.has('-d') || s.has('--decompress') || s.has('--uncompress'),
        optionValue(s, '-S --suffix')?.text ?? suffix,
      ),
  };
}

function twins(s: Scanned, decompresses: boolean, suffix: string): Found[] {
  return s.operands.flatMap((at) => {
    const text = s.argv[at] as string;
    const twin = decompresses
      ? text.endsWith(suffix)
        ? text.slice(0, -suffix.length)
        : text.replace(/\.(tgz|txz|tbz2?|tzst)$/, '.tar').replace(COMPRESSED, '')
      : `${text}${suffix}`;
    return [operand(s, at), { text: twin, at }];
  });
}

/** lz4 IN OUT writes OUT; with one operand it works as gzip does. */
function lz4(decompresses: boolean): WriteModel {
  return {
    custom: (s) =>
      s.operands[1] !== undefined
        ? [operand(s, s.operands[1])]
        : twins(s, decompresses || s.has('-d') || s.has('--decompress'), '.lz4'),
  };
}

/** dos2unix rewrites its files in place; `-n IN OUT` writes OUT. */
const NEWLINES: WriteModel = {
  flags: '--newfile',
  custom: (s) =>
    (s.has('-n') || s.has('--newfile') ? s.operands.filter((_, k) => k % 2 === 1) : s.operands).map((at) =>
      operand(s, at),
    ),
};

/** Join GLOBAL_VALUE_OPTIONS (owned by the option models) into a value list. */
const global = (program: string, extra = ''): string =>
  `${[...(own(GLOBAL_VALUE_OPTIONS, program) ?? [])].join(' ')} ${extra}`.trim();

const AWK: WriteModel = {
  values: '-f --file -i --include -E --exec -l --load -v --assign -F --field-separator -e --source',
  custom: (s) =>
    s.options.some((o) => /^(-i|--include)$/.test(o.name) && /^inplace(\.awk)?$/.test(o.value ?? ''))
      ? scriptOperands(s, '-f --file -E --exec -e --source')
      : [],
};

export const WRITE_MODELS: Record<string, WriteModel> = {
  tee: { operands: 'all' },
  cp: { ...CP, operands: 'into' },
  install: {
    values: '-m --mode -o --owner -g --group -S --suffix --strip-program',
    into: '-t --target-directory',
    operands: 'into',
    allWith: '-d --directory',
  },
  mv: { ...CP, operands: 'move' },
  ln: { ...CP, operands: 'link' },
  rm: { operands: 'all' },
  // rimraf 3 expands its operands as globs (4 and later with --glob): a pattern is written as given.
  rimraf: { values: '--tmp --max-retries --retry-delay --backoff --impl', operands: 'all' },
  rmdir: { operands: 'all' },
  unlink: { operands: 'all' },
  shred: { values: '-n --iterations -s --size --random-source', operands: 'all' },
  truncate: { values: '-s --size -r --reference', operands: 'all' },
  touch: { values: '-d --date -r --reference -t', operands: 'all' },
  mkdir: { values: '-m --mode --context', operands: 'all' },
  mkfifo: { values: '-m --mode', operands: 'all' },
  mknod: { values: '-m --mode', operands: 'first' },
  wipefs: { values: '-o --offset -t --types', operands: 'all' },
  chmod: { operands: 'after-first', allWith: '--reference', modeLike: /^-[rwxXstugoa=+,0-7]+$/ },
  chown: { operands: 'after-first', allWith: '--reference' },
  chgrp: { operands: 'after-first', allWith: '--reference' },
  sort: {
    values:
      '-k --key -t --field-separator -S --buffer-size -T --temporary-directory --batch-size --parallel --files0-from --compress-program -o --output',
    targets: '-o --output',
    operands: 'none',
  },
  uniq: { values: '-f --skip-fields -s --skip-chars -w --check-chars', operands: 'second' },
  // ImageMagick writes its last operand (`convert in.png -resize 50% out.png`); a `FORMAT:-` one is stdout.
  convert: { operands: 'local-last' },
  magick: { operands: 'local-last' },
  // `python -m venv DIR…` and virtualenv make (or, with --clear, empty) each environment directory.
  venv: { values: '--prompt --upgrade-deps', operands: 'all' },
  virtualenv: {
    values: '-p --python --prompt --activators --seeder --app-data --discovery --creator --extra-search-dir',
    operands: 'all',
  },
  // util-linux's `rename FROM TO FILE…`: each FILE moved to its name with FROM replaced by TO; perl's
  // `rename 's/…/…/' FILE…` computes the new names in code (where they land cannot be told).
  rename: { flags: '-n --no-act -s --symlink', custom: renameWrites },
  'rename.ul': { flags: '-n --no-act -s --symlink', custom: renameWrites },
  // The C preprocessor: `cpp IN OUT` or `-o OUT`; `-MF` writes the dependency file.
  cpp: {
    values: '-o -I -D -U -include -imacros -isystem -idirafter -iprefix -iquote -MF -MT -MQ -x -std',
    targets: '-o -MF',
    operands: 'second',
  },
  // `python -m json.tool IN OUT`, `python -m zipapp SRC -o OUT`, as their module CLIs are run.
  'json.tool': { values: '--indent', operands: 'second' },
  zipapp: { values: '-o --output -p --python -m --main', targets: '-o --output', operands: 'none' },
  gzip: compressor('.gz'),
  gunzip: compressor('.gz', true),
  pigz: compressor('.gz'),
  unpigz: compressor('.gz', true),
  bzip2: compressor('.bz2'),
  bunzip2: compressor('.bz2', true),
  pbzip2: compressor('.bz2'),
  xz: compressor('.xz'),
  unxz: compressor('.xz', true),
  lzma: compressor('.lzma'),
  unlzma: compressor('.lzma', true),
  zstd: compressor('.zst'),
  unzstd: compressor('.zst', true),
  brotli: compressor('.br'),
  lz4: lz4(false),
  unlz4: lz4(true),
  // `xxd -r HEX FILE` (and a dump `xxd IN OUT`): the second operand is written.
  xxd: { values: '-c -cols -g -groupsize -l -len -o -offset -s -seek -n -name', operands: 'second' },
  // `cmake -E copy|rename|… SRC… DEST`: the last operand; `remove`/`rm` delete theirs.
  cmake: {
    custom: (s) => {
      const words = s.argv;
      // `cmake -S SRC -B BUILD`: the build tree is written (made if missing).
      const build = words.findIndex((w) => w === '-B' || (w.startsWith('-B') && w.length > 2));
      if (build > 0) {
        const word = words[build] as string;
        return word === '-B'
          ? words[build + 1] === undefined
            ? []
            : [{ text: words[build + 1] as string, at: build + 1 }]
          : [{ text: word.slice(2), at: build }];
      }
      const e = words.indexOf('-E');
      const verb = e >= 0 ? words[e + 1] : undefined;
      if (verb === undefined) return [];
      const rest = words
        .slice(e + 2)
        .map((text, k) => ({ text, at: e + 2 + k }))
        .filter((w) => !w.text.startsWith('-'));
      if (/^(copy|copy_if_different|copy_directory|rename|create_symlink|create_hardlink)$/.test(verb))
        return rest.slice(-1);
      // `cmake -E tar xf a.tar`: the archive's files, here.
      if (verb === 'tar')
        return /^-?[a-z]*x/.test(rest[0]?.text ?? '') ? [{ text: '.', unresolved: true }] : rest.slice(1, 2);
      if (/^(remove|rm|remove_directory|touch|touch_nocreate|make_directory)$/.test(verb)) return rest;
      return [];
    },
  },
  gpg: { values: '-o --output -r --recipient -u --local-user --homedir', targets: '-o --output' },
  // Programs whose output file is an option or an operand beside what they run or read: a
  // typescript (`script FILE`), a trace or timing log, a merged file, an index, a stripped binary.
  script: {
    values: '-c --command -E --echo -I --log-in -O --log-out -B --log-io -T --log-timing -m --logging-format',
    targets: '-I --log-in -O --log-out -B --log-io -T --log-timing',
    operands: 'first',
  },
  strace: {
    values: '-o --output -e -p -s -u -E -P -a -b -I -X -S -O',
    targets: '-o --output',
    operands: 'none',
  },
  ltrace: {
    values: '-o --output -e -p -s -u -a -n -A -D -F -l -L',
    targets: '-o --output',
    operands: 'none',
  },
  time: { values: '-f --format -o --output', targets: '-o --output', operands: 'none' },
  sdiff: {
    values: '-o --output -w --width -I --ignore-matching-lines',
    targets: '-o --output',
    operands: 'none',
  },
  strip: {
    values: '-o -F -I -O -K -N -R --remove-section --keep-symbol --strip-symbol',
    targets: '-o',
    operands: 'all',
  },
  objcopy: { values: '-I -O -B -j -R -K -N -L -G -W --add-section --set-section-flags', operands: 'all' },
  fallocate: { values: '-o --offset -l --length', operands: 'all' },
  cpio: {
    values: '-F --file -O -I -H --format -R --owner -E --pattern-file -M --message -D --directory',
    targets: '-F --file -O',
    operands: 'none',
  },
  ar: {
    custom: (s) => {
      // `ar rc ARCHIVE FILE…` (the key without a dash is the first word) or `ar -rc ARCHIVE …`.
      const keyed = !(s.argv[1] ?? '').startsWith('-');
      const at = s.operands[keyed ? 1 : 0];
      return at === undefined ? [] : [{ text: s.argv[at] as string, at }];
    },
  },
  pip: {
    values:
      '-t --target --prefix --root --src -d --dest -w --wheel-dir -r --requirement -c --constraint -i --index-url --extra-index-url -f --find-links --log --report --cache-dir --python-version --platform --implementation --abi',
    targets: '-t --target --prefix --root --src -d --dest -w --wheel-dir --log --report',
    // `pip config set|unset|edit`: the user's pip.conf (an index URL there re-routes every install).
    custom: (s) => {
      const [group, verb] = s.operands.map((k) => s.argv[k] as string);
      if (group !== 'config' || !/^(set|unset|edit)$/.test(verb ?? '')) return [];
      if (s.has('--site')) return [{ text: '.', unresolved: true }];
      if (s.has('--global')) return [{ text: '/etc/pip.conf' }];
      return [{ text: '~/.config/pip/pip.conf' }, { text: '~/.pip/pip.conf' }];
    },
  },
  // Other tools' persistent settings: a registry, proxy, flag or account every later command of the
  // tool uses, kept in a file of the home directory (or the project's rc file where the tool puts it).
  pnpm: {
    values: '--location -C --dir',
    custom: (s) => settingsWrites(s, ['config', 'c'], ['set', 'delete'], ['~/.config/pnpm/rc', '~/.npmrc']),
  },
  yarn: {
    values: '--cwd',
    custom: (s) =>
      settingsWrites(
        s,
        ['config'],
        ['set', 'delete', 'unset'],
        ['.yarnrc.yml', '~/.yarnrc.yml', '~/.yarnrc'],
      ),
  },
  poetry: {
    values: '-C --directory',
    // `poetry config KEY VALUE` (or `--unset KEY`): a KEY alone, or `--list`, only reads.
    custom: (s) => {
      const words = s.operands.map((k) => s.argv[k] as string);
      if (words[0] !== 'config' || (words.length < 3 && !s.has('--unset'))) return [];
      return [{ text: s.has('--local') ? 'poetry.toml' : '~/.config/pypoetry/config.toml' }];
    },
  },
  // `go env -w|-u`: GOFLAGS (`-toolexec=…`), GOPROXY, GOPATH for every later go command.
  go: {
    custom: (s) => {
      const first = s.operands[0];
      if (first === undefined || s.argv[first] !== 'env') return [];
      return s.argv.some((w) => /^-(w|u)$/.test(w)) ? [{ text: '~/.config/go/env' }] : [];
    },
  },
  gem: {
    values: '-s --source',
    custom: (s) =>
      s.operands.some((k) => s.argv[k] === 'sources') &&
      s.argv.some((w) => /^(-a|--add|-r|--remove|-c|--clear-all)$/.test(w))
        ? [{ text: '~/.gemrc' }]
        : [],
  },
  gpg2: { values: '-o --output -r --recipient -u --local-user --homedir', targets: '-o --output' },
  age: { values: '-o --output -r --recipient -R --recipients-file -i --identity', targets: '-o --output' },
  iconv: { values: '-f --from-code -t --to-code -o --output', targets: '-o --output' },
  pandoc: {
    values: '-o --output -f --from -r --read -t --to -w --write --template -M --metadata -V --variable',
    targets: '-o --output',
  },
  dos2unix: NEWLINES,
  unix2dos: NEWLINES,
  sed: {
    values: '-e --expression -f --file -l --line-length',
    attached: 'i',
    custom: (s) => (inPlace(s) ? scriptOperands(s, '-e --expression -f --file') : []),
  },
  perl: {
    values: '-e -E -I -M -m -x',
    attached: 'i l 0 C',
    custom: (s) => (inPlace(s) ? scriptOperands(s, '-e -E') : []),
  },
  // gawk's `-i inplace` library rewrites every input file; the program is the first operand unless -f/-E give it.
  gawk: AWK,
  awk: AWK,
  dd: {
    custom: (s) =>
      s.operands
        .filter((k) => (s.argv[k] as string).startsWith('of='))
        .map((k) => ({ text: (s.argv[k] as string).slice(3), at: k })),
  },
  curl: {
    values: global(
      'curl',
      '-D --dump-header --trace --trace-ascii --stderr --libcurl --etag-save --output-dir',
    ),
    targets: '-D --dump-header -c --cookie-jar --trace --trace-ascii --stderr --libcurl --etag-save --hsts',
    flags: '--remote-name --remote-name-all --remote-header-name --continue-at --no-clobber',
    // Its output files, named or named after the URL (marked below): the download replaces them.
    keeps: '-C --continue-at --no-clobber',
    custom: (s) => {
      // `-o NAME` lands in --output-dir when one is given (`--output-dir .claude -o settings.json`).
      const dir = optionValue(s, '--output-dir');
      const named = s.options
        .filter((o) => (o.name === '-o' || o.name === '--output') && o.value !== undefined)
        .map((o) => {
          const value = o.value as string;
          if (!dir || value.startsWith('/') || value === '-')
            return { text: value, at: o.at, replaces: true };
          return { text: posix.join(dir.text, value), at: o.at, replaces: true };
        });
      if (!(s.has('-O') || s.has('--remote-name') || s.has('--remote-name-all'))) return named;
      // -J takes the name the server sends: some file in the directory.
      if (s.has('-J') || s.has('--remote-header-name'))
        return [...named, { text: dir?.text ?? '.', unresolved: true }];
      return [...named, ...urlNames(s, '--output-dir', '').map((f) => ({ ...f, replaces: true }))];
    },
  },
  wget: {
    values: global(
      'wget',
      '-a --append-output --directory-prefix -i --input-file -e --execute -t --tries -T --timeout -l --level',
    ),
    targets: '-O --output-document -o --output-file -a --append-output',
    flags: '--continue --no-clobber',
    // -O's file is truncated first (a file named after the URL is not clobbered: wget adds .1).
    replaces: '-O --output-document',
    keeps: '-c --continue -nc --no-clobber',
    custom: (s) =>
      s.has('-O') || s.has('--output-document') ? [] : urlNames(s, '-P --directory-prefix', 'index.html'),
  },
  // Database clients' output and log files (a psql `--output` starting with `|` is a program: sql-clients.ts).
  psql: {
    values:
      '-c --command -d --dbname -f --file -v --set --variable -L --log-file -o --output -F --field-separator ' +
      '-P --pset -R --record-separator -T --table-attr -h --host -p --port -U --username',
    targets: '-o --output -L --log-file',
  },
  mysql: {
    values: '-e --execute -h --host -P --port -u --user -D --database -S --socket --tee',
    targets: '--tee',
  },
  mariadb: {
    values: '-e --execute -h --host -P --port -u --user -D --database -S --socket --tee',
    targets: '--tee',
  },
  sqlcmd: { values: '-S -d -U -P -Q -q -i -o -v', targets: '-o' },
  http: {
    values: '-o --output -a --auth --session --session-read-only',
    targets: '-o --output',
    replaces: '-o --output',
    keeps: '-c --continue',
  },
  https: {
    values: '-o --output -a --auth --session --session-read-only',
    targets: '-o --output',
    replaces: '-o --output',
    keeps: '-c --continue',
  },
  xh: {
    values: '-o --output -a --auth --session --session-read-only',
    targets: '-o --output',
    replaces: '-o --output',
    keeps: '-c --continue',
  },
  tar: {
    values:
      '-f --file -C --directory -b --blocking-factor -T --files-from -X --exclude-from -g --listed-incremental -K -N -V -H --format --index-file',
    // `--index-file F`: the verbose listing goes to F.
    custom: (s) => {
      const index = optionValue(s, '--index-file');
      return index ? [...tarWrites(s), index] : tarWrites(s);
    },
  },
  rsync: {
    values: global('rsync', '--log-file --backup-dir --partial-dir --write-batch --only-write-batch'),
    targets: '--log-file --backup-dir --partial-dir -T --temp-dir --write-batch --only-write-batch',
    readOnly: '-n --dry-run --list-only',
    // The local destination (or, for a source without a trailing slash, the tree of its name there);
    // with --remove-source-files the local sources are deleted too.
    custom: (s, res) => {
      const local = s.operands.map((at) => operand(s, at)).filter((f) => !isRemote(f.text));
      const last = s.operands[s.operands.length - 1];
      const out =
        s.operands.length >= 2 && last !== undefined && !isRemote(s.argv[last] as string)
          ? copiedInto(
              s.operands.slice(0, -1).map((at) => operand(s, at)),
              operand(s, last),
              res,
              (src) => src.endsWith('/'),
            )
          : [];
      if (s.has('--remove-source-files'))
        out.push(...local.filter((f) => f.at !== last).map((f) => ({ ...f, moved: true })));
      return out;
    },
  },
  // What it fetches replaces the local file (into a directory: the file of the source's name there).
  scp: { values: global('scp'), operands: 'local-last', replaces: 'operands' },
  // `docker cp CONTAINER:SRC DEST` (and podman's, nerdctl's, compose's, kubectl's and oc's `cp`):
  // a tree from elsewhere written at DEST, whose names are not known here.
  docker: { values: global('docker', '--index'), custom: containerCopy },
  podman: { values: global('podman'), custom: containerCopy },
  nerdctl: { values: global('nerdctl'), custom: containerCopy },
  kubectl: { values: global('kubectl', '-c --container --retries'), custom: containerCopy },
  oc: { values: global('oc', '-c --container --retries'), custom: containerCopy },
  sqlite3: {
    values: global('sqlite3', '-A'),
    attached: 'A',
    // The database file; `-A x` (`-Ax`, `--extract`) unpacks the archive's files here as well.
    custom: (s) => {
      const db = s.operands[0] === undefined ? [] : [operand(s, s.operands[0])];
      const archive = s.options.find((o) => o.name === '-A');
      const extract =
        /^-?-?(x|extract)/.test(archive?.value ?? '') ||
        s.argv.some((w, k) => k > (archive?.at ?? Number.POSITIVE_INFINITY) && /^-(x|-extract)$/.test(w));
      if (s.has('-readonly') && !extract) return [];
      return extract ? [...db, { text: '.', unresolved: true }] : db;
    },
  },
  // redis-cli --rdb FILE writes the server's dump over FILE.
  'redis-cli': {
    values: global('redis-cli', '--rdb --functions-rdb'),
    targets: '--rdb --functions-rdb',
    operands: 'none',
  },
  duckdb: { values: '-c -cmd -s -init', operands: 'first', readOnly: '-readonly' },
  patch: {
    values:
      '-i --input -o --output -d --directory -p --strip -r --reject-file -B --prefix -z --suffix -D --ifdef -F --fuzz -V --version-control -Y --basename-prefix --quoting-style',
    targets: '-o --output -r --reject-file',
    readOnly: '--dry-run',
    // The files patched are named inside the patch: read by patch-files.ts.
    custom: (s) => (s.operands.length > 0 ? [operand(s, s.operands[0] as number)] : []),
  },
  split: {
    values:
      '-a --suffix-length -b --bytes -C --line-bytes -l --lines -n --number -t --separator --additional-suffix --filter',
    // Files named PREFIX and a suffix (`x00`, `part.aa`): the prefix as a pattern of what is written.
    custom: (s) => {
      const at = s.operands[1];
      return [at === undefined ? { text: 'x*' } : { text: `${s.argv[at] as string}*`, at }];
    },
  },
  csplit: {
    values: '-b --suffix-format -f --prefix -n --digits',
    // Files named PREFIX and the suffix format's output (`-b '%02d.txt'`, or a path: `-f '' -b
    // .git/config%.0d`): the two joined, each conversion a pattern of what it prints.
    custom: (s) => {
      const prefix = optionValue(s, '-f --prefix') ?? { text: 'xx' };
      const suffix = optionValue(s, '-b --suffix-format');
      const text = `${prefix.text}${suffix === undefined ? '*' : suffix.text.replace(/%[^%a-zA-Z]*[a-zA-Z]/g, '*')}`;
      return [
        {
          text,
          ...(prefix.at !== undefined
            ? { at: prefix.at }
            : suffix?.at !== undefined
              ? { at: suffix.at }
              : {}),
        },
      ];
    },
  },
  find: { custom: findWrites },
  ruby: {
    values: '-e -E -I -r -C -x',
    attached: 'i',
    custom: (s) => (inPlace(s) ? scriptOperands(s, '-e') : []),
  },
  yq: {
    values: '-o --output-format -p --input-format -I --indent --from-file',
    flags: '--inplace',
    custom: (s) => (s.has('-i') || s.has('--inplace') ? scriptOperands(s, '--from-file') : []),
  },
  sponge: { operands: 'all' },
  zip: {
    values: '-b -n -t -tt -x -i -P -O --out -Z -s',
    targets: '-O --out',
    readOnly: '-sf',
    // The archive; with -m (--move) the files put in it are deleted.
    custom: (s) => {
      const [archive, ...members] = s.operands.map((at) => operand(s, at));
      if (!archive) return [];
      // `-` is stdout: no file holds what it archives.
      const kept = archive.text === '-' ? [] : [archive];
      if (!(s.has('-m') || s.has('--move'))) return kept;
      return [...kept, ...members.map((f) => ({ ...f, moved: true }))];
    },
  },
  '7z': {
    attached: 'o',
    custom: (s) => {
      const command = s.argv[s.operands[0] ?? -1] ?? '';
      if (command === 'x' || command === 'e') return [optionValue(s, '-o') ?? { text: '.' }];
      if (/^[aud]$/.test(command) && s.operands[1] !== undefined) {
        // -sdel deletes the files once they are in the archive.
        const members = s.argv.includes('-sdel') ? s.operands.slice(2) : [];
        return [operand(s, s.operands[1]), ...members.map((at) => ({ ...operand(s, at), moved: true }))];
      }
      return [];
    },
  },
  // `rar a|m ARCHIVE FILES`: the archive; `m` and `-df` delete the files once archived; `x`/`e`
  // (rar's and unrar's) unpack into the directory given after the archive, or here.
  rar: {
    custom: (s) => {
      const [command, archive, ...members] = s.operands;
      const verb = command === undefined ? '' : (s.argv[command] as string);
      if (/^[xe]$/.test(verb)) return [members[0] === undefined ? { text: '.' } : operand(s, members[0])];
      if (!/^[amuf]$/.test(verb) || archive === undefined) return [];
      const moves = verb === 'm' || s.argv.includes('-df');
      return [
        operand(s, archive),
        ...(moves ? members.map((at) => ({ ...operand(s, at), moved: true })) : []),
      ];
    },
  },
  openssl: {
    values: '-in -out -key -keyout -passin -passout -config -subj -days -inkey -signkey -CA -CAkey -certfile',
    targets: '-out -keyout',
  },
  // -l (fingerprint), -y (public key), -F (find in known_hosts), -B (bubblebabble), -D and -Q only read -f.
  'ssh-keygen': {
    values: '-f -C -N -P -t -b -E -Z -a -I -n -O -V -z -s -D -F',
    targets: '-f',
    readOnly: '-l -y -F -B -D -Q',
  },
  mkswap: { values: '-L -U -p', operands: 'first' },
  unzip: {
    values: '-d -x -P -I -O',
    readOnly: '-l -t -v -Z -p -c',
    custom: (s) => [optionValue(s, '-d') ?? { text: '.' }],
  },
  // `npm pkg set|delete|fix` edits package.json; `npm config set|delete|edit|fix` (and `npm set`)
  // the user's ~/.npmrc, the project's .npmrc with --location=project, the global one with -g.
  npm: {
    values: '-L --location --userconfig --prefix -w --workspace --pack-destination',
    flags: '--global',
    custom: (s) => {
      const ops = s.operands.map((k) => s.argv[k] as string);
      // `npm install --prefix DIR` fills DIR/node_modules; `npm pack --pack-destination DIR` writes a tarball there.
      const into: Found[] = [];
      const prefix = optionValue(s, '--prefix');
      if (
        prefix &&
        /^(i|in|ins|inst|insta|instal|install|isntall|add|ci|clean-install|update|up|uninstall|un|rm|remove|link|ln)$/.test(
          ops[0] ?? '',
        )
      )
        into.push(prefix);
      const pack = optionValue(s, '--pack-destination');
      if (pack && ops[0] === 'pack') into.push(pack);
      if (into.length > 0) return into;
      if (ops[0] === 'pkg' && /^(set|delete|fix)$/.test(ops[1] ?? ''))
        return [{ text: posix.join(optionValue(s, '--prefix')?.text ?? '.', 'package.json') }];
      const config = (ops[0] === 'config' || ops[0] === 'c') && /^(set|delete|edit|fix)$/.test(ops[1] ?? '');
      if (!config && ops[0] !== 'set') return [];
      const userconfig = optionValue(s, '--userconfig');
      if (userconfig) return [userconfig];
      const location = optionValue(s, '-L --location')?.text;
      if (location === 'project') return [{ text: '.npmrc' }];
      if (location === 'global' || s.has('-g') || s.has('--global'))
        return [{ text: '/usr/etc/npmrc', unresolved: true }];
      return [{ text: '~/.npmrc' }];
    },
  },
};

/** Python's `-m zipfile` / `-m tarfile`: `-e ARCHIVE [DIR]` unpacks into DIR (here), `-c ARCHIVE FILES` writes ARCHIVE. */
const PY_ARCHIVE: WriteModel = {
  custom: (s) => {
    const [archive, dir] = s.operands;
    if (s.has('-e') || s.has('--extract')) return [dir === undefined ? { text: '.' } : operand(s, dir)];
    if ((s.has('-c') || s.has('--create')) && archive !== undefined) return [operand(s, archive)];
    return [];
  },
};

/** `jar xf A.jar` unpacks here; `jar cf|uf A.jar FILES` writes the archive. */
const JAR: WriteModel = {
  custom: (s) => {
    const mode = s.argv[1] ?? '';
    if (/^-?[a-zA-Z]*x/.test(mode) || s.has('--extract')) return [{ text: '.' }];
    const file = /^-?[a-zA-Z]*[cu][a-zA-Z]*f/.test(mode) ? s.argv[2] : undefined;
    return file === undefined ? [] : [{ text: file, at: 2 }];
  },
};

/**
 * `TOOL GROUP VERB …` (`pnpm config set`, `yarn config set`) writes the tool's settings files; none
 * for another command. Every file the setting may land in is a write.
 */
function settingsWrites(
  s: Scanned,
  groups: readonly string[],
  verbs: readonly string[],
  files: readonly string[],
): Found[] {
  const [group, verb] = s.operands.map((k) => s.argv[k] as string);
  if (!groups.includes(group ?? '') || !verbs.includes(verb ?? '')) return [];
  return files.map((text) => ({ text }));
}

/** Program names that share a model. */
const ALIASES: Record<string, string> = {
  pip3: 'pip',
  bsdtar: 'tar',
  sqlite: 'sqlite3',
  '7za': '7z',
  '7zr': '7z',
  '7zz': '7z',
  unrar: 'rar',
};

/** mkfs and mkfs.TYPE: the device. */
const MKFS: WriteModel = { values: '-t -L -b -c -i -I -m -O -E -N -U', operands: 'first' };

/** Compilers and linkers: `-o FILE` is written. */
const COMPILER: WriteModel = {
  values: '-o -x -I -L -D -U -include -isystem -MF -MT -MQ -T -e',
  targets: '-o -MF',
};

export function writeModel(program: string): WriteModel | undefined {
  const name = own(ALIASES, program) ?? program;
  if (name === 'zipfile' || name === 'tarfile') return PY_ARCHIVE;
  if (name === 'jar') return JAR;
  if (/^pip\d+(\.\d+)?$/.test(name)) return WRITE_MODELS.pip;
  if (Object.hasOwn(WRITE_MODELS, name)) return WRITE_MODELS[name];
  if (/^mkfs(\.|$)/.test(name)) return MKFS;
  if (/^(gcc|g\+\+|cc|c\+\+|clang|clang\+\+|ld|ld\.(bfd|gold|lld)|tcc)(-\d+)?$/.test(name)) return COMPILER;
  return undefined;
}

const names = (text: string): string[] => text.split(' ');

/** `host:path`, `user@host:path`, `rsync://…`: not a local path. */
export function isRemote(text: string): boolean {
  return /^[a-z]+:\/\//i.test(text) || /^[^/]*:/.test(text);
}

export function operand(s: Scanned, at: number): Found {
  return { text: s.argv[at] as string, at };
}

/**
 * Where a copy of each source lands in DEST: DEST itself for a source copied as its contents
 * (`contents`: rsync's `src/`, docker's `src/.`), else the entry of the source's name in DEST when
 * DEST is a directory there now; otherwise DEST, which may be made as a directory holding it too.
 */
function copiedInto(
  sources: readonly Found[],
  dest: Found,
  res: Resolver,
  contents: (src: string) => boolean,
): Found[] {
  const base = dest.text.replace(/\/+$/, '') || '/';
  const isDirectory = res.isDirectory(dest.text);
  const out: Found[] = [];
  for (const src of sources) {
    const name = copiedName(src.text);
    const from = src.at !== undefined ? { from: src.at, mirrors: src.at } : {};
    const inside = name ? { text: posix.join(base, name), at: dest.at ?? -1, ...from } : undefined;
    if (contents(src.text) || !inside)
      out.push(src.at !== undefined && sources.length === 1 ? { ...dest, mirrors: src.at } : dest);
    else if (isDirectory === true) out.push(inside);
    else out.push(dest, inside);
  }
  return out.filter((f, k) => out.findIndex((g) => g.text === f.text) === k);
}

/** The name a copy of a source takes in a directory: its last part, a remote's `HOST:` dropped. */
export function copiedName(source: string): string | undefined {
  return source
    .replace(/^[^/]*:/, '')
    .replace(/\/+$/, '')
    .split('/')
    .pop();
}

/** A container CLI's `cp` from a container (or pod) into a local path: the path, as a tree. */
export function containerCopy(s: Scanned, res: Resolver): Found[] {
  const words = s.operands.map((at) => operand(s, at));
  const k = words[0]?.text === 'container' || words[0]?.text === 'compose' ? 1 : 0;
  const [src, dest] = [words[k + 1], words[k + 2]];
  if (words[k]?.text !== 'cp' || !src || !dest || dest.text === '-') return [];
  // The container side is NAME:PATH (kubectl's [NAMESPACE/]POD:PATH); a local path has none.
  const remote = (text: string) => !/^[./~]/.test(text) && text.includes(':');
  if (!remote(src.text) || remote(dest.text)) return [];
  return copiedInto([src], dest, res, (text) => /\/\.?$/.test(text));
}

/** The value of the last of these options given. */
export function optionValue(s: Scanned, options: string): Found | undefined {
  const wanted = names(options);
  const option = [...s.options].reverse().find((o) => wanted.includes(o.name) && o.value !== undefined);
  return option ? { text: option.value as string, at: option.at } : undefined;
}

function inPlace(s: Scanned): boolean {
  return s.has('-i') || s.has('--in-place');
}

/** Operands after the script: the script is the first operand unless given by an option. */
function scriptOperands(s: Scanned, scriptOptions: string): Found[] {
  const given = names(scriptOptions).some((o) => s.has(o));
  return s.operands.slice(given ? 0 : 1).map((at) => operand(s, at));
}

/** `curl -O URL`, `wget URL`: the file named after the URL's last path segment, in DIR or `.`. */
function urlNames(s: Scanned, dirOptions: string, fallback: string): Found[] {
  const dir = optionValue(s, dirOptions)?.text ?? '.';
  const out: Found[] = [];
  for (const at of s.operands) {
    const url = s.argv[at] as string;
    const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '');
    const name = path.slice(path.lastIndexOf('/') + 1) || fallback;
    if (name !== '') out.push({ text: `${dir}/${name}`, at });
  }
  return out;
}

function renameWrites(s: Scanned): Found[] {
  if (s.has('-n') || s.has('--no-act')) return [];
  const [from, to, ...files] = s.operands;
  if (from === undefined) return [];
  const expression = s.argv[from] as string;
  // perl's rename, or -s (the links' targets renamed): names that cannot be told here.
  if (to === undefined || /^(s|y|tr)\W/.test(expression) || s.has('-s') || s.has('--symlink'))
    return s.operands.map((at) => ({ ...operand(s, at), unresolved: true, moved: true }));
  const replacement = s.argv[to] as string;
  return files.flatMap((at) => {
    const name = s.argv[at] as string;
    return [
      { text: name.replace(expression, replacement), at },
      { ...operand(s, at), moved: true },
    ];
  });
}

/** tar: extracting writes under `-C DIR` (or `.`); creating, appending or deleting writes the archive. */
function tarWrites(s: Scanned): Found[] {
  const first = s.argv[1] ?? '';
  // Old-style `tar xzf FILE`: a first word without a dash is a cluster of letters.
  const letters = first.startsWith('-') ? '' : first;
  const mode = (short: string, long: string): boolean =>
    letters.includes(short) || s.has(`-${short}`) || names(long).some((l) => s.has(l));
  const archive = (): Found[] => {
    const file = optionValue(s, '-f --file');
    if (file) return file.text === '-' ? [] : [file];
    if (letters.includes('f') && s.operands[1] !== undefined) return [operand(s, s.operands[1])];
    return [];
  };
  if (mode('x', '--extract --get')) {
    if (s.has('-O') || s.has('--to-stdout') || s.has('--to-command')) return [];
    const dirs = s.options.filter(
      (o) => (o.name === '-C' || o.name === '--directory') && o.value !== undefined,
    );
    const found: Found[] =
      dirs.length > 0 ? dirs.map((o) => ({ text: o.value as string, at: o.at })) : [{ text: '.' }];
    // Absolute member names are kept with -P: any path may be written.
    if (s.has('-P') || s.has('--absolute-names')) found.push({ text: '/', unresolved: true });
    return found;
  }
  if (
    mode('c', '--create') ||
    mode('r', '--append') ||
    mode('u', '--update') ||
    mode('A', '--concatenate') ||
    s.has('--delete')
  ) {
    // --remove-files deletes each file once it is in the archive.
    if (!s.has('--remove-files')) return archive();
    const skip = new Set(archive().map((f) => f.at));
    const members = s.operands
      .filter((at) => !skip.has(at))
      .map((at) => ({ ...operand(s, at), moved: true }));
    return [...archive(), ...members];
  }
  return [];
}

const FIND_WRITE_VALUES = new Set(['-fprint', '-fprint0', '-fls', '-fprintf']);
const FIND_VALUES = GLOBAL_VALUE_OPTIONS.find ?? new Set<string>();

/** find: `-fprint FILE` and friends write FILE; `-delete` deletes under the start paths. */
function findWrites(s: Scanned): Found[] {
  const { argv } = s;
  const starts: Found[] = [];
  let i = 1;
  // Options before the start paths: -H -L -P, -D debugopts, -Olevel.
  while (/^-([HLP]|O\d*|D)$/.test(argv[i] ?? '')) i += argv[i] === '-D' ? 2 : 1;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (/^[-(!,]/.test(arg) && arg !== '-') break;
    starts.push({ text: arg, at: i });
  }
  const out: Found[] = [];
  let deletes = false;
  for (; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '-delete') deletes = true;
    if (FIND_WRITE_VALUES.has(arg) && i + 1 < argv.length)
      out.push({ text: argv[i + 1] as string, at: i + 1 });
    if (arg === '-fprintf') i++;
    if (FIND_VALUES.has(arg)) i++;
  }
  if (deletes) out.push(...(starts.length > 0 ? starts : [{ text: '.' }]));
  return out;
}
