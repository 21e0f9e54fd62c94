// Option models of the programs the catalogue gates or that run commands given as option values
// (see option-model.ts for the notation). Long options resolve by unambiguous prefix as getopt_long
// does; a model that lists an option the real program lacks can only make an abbreviation ambiguous,
// which the real program refuses, so the models err towards reading more options, never fewer.
import { type OptionModel, optionModel } from './option-model.js';
import { own } from './own.js';

const gnu = (text: string) => optionModel(`${text} help version`);

const RM = gnu(
  'f|force i I interactive? one-file-system no-preserve-root preserve-root? r|R|recursive d|dir v|verbose',
);

const COPY_COMMON =
  'b backup? f|force i|interactive n|no-clobber S|suffix= t|target-directory= T|no-target-directory ' +
  'u|update? v|verbose Z context? strip-trailing-slashes debug exchange';

const CP = gnu(
  `${COPY_COMMON} a|archive attributes-only copy-contents d L|dereference H l|link P|no-dereference ` +
    'p preserve? no-preserve= parents r|R|recursive reflink? remove-destination sparse= s|symbolic-link ' +
    'x|one-file-system keep-directory-symlink',
);
const MV = gnu(`${COPY_COMMON} no-copy`);
const LN = gnu(
  'b backup? d|F|directory f|force i|interactive L|logical n|no-dereference P|physical r|relative ' +
    's|symbolic S|suffix= t|target-directory= T|no-target-directory v|verbose',
);
const CHMOD = gnu(
  'c|changes f|silent|quiet v|verbose no-preserve-root preserve-root reference= R|recursive H L P dereference no-dereference',
);
const CHOWN = gnu(
  'c|changes f|silent|quiet v|verbose dereference h|no-dereference from= no-preserve-root preserve-root ' +
    'reference= R|recursive H L P',
);
const SHRED = gnu('f|force n|iterations= random-source= s|size= u remove? v|verbose x|exact z|zero');
const TRUNCATE = gnu('c|no-create o|io-blocks r|reference= s|size=');
const TEE = gnu('a|append i|ignore-interrupts p output-error?');

const SED = gnu(
  'n|quiet|silent debug e|expression= f|file= follow-symlinks i|in-place? l|line-length= posix ' +
    'E|r|regexp-extended s|separate sandbox u|unbuffered z|null-data b|binary',
);

const TAR = gnu(
  'A|catenate|concatenate c|create d|diff|compare delete r|append t|list test-label u|update x|extract|get ' +
    'check-device g|listed-incremental= G|incremental hole-detection= ignore-failed-read level= ' +
    'n|seek no-seek occurrence? sparse-version= S|sparse k|keep-old-files keep-directory-symlink ' +
    'keep-newer-files no-overwrite-dir one-top-level? overwrite overwrite-dir recursive-unlink remove-files ' +
    'skip-old-files U|unlink-first W|verify ignore-command-error no-ignore-command-error O|to-stdout ' +
    'to-command! atime-preserve? delay-directory-restore no-delay-directory-restore group= group-map= ' +
    'mode= mtime= m|touch no-same-owner no-same-permissions numeric-owner owner= owner-map= ' +
    'p|preserve-permissions|same-permissions same-owner s|preserve-order|same-order sort= ' +
    'f|file= F|info-script|new-volume-script! L|tape-length= M|multi-volume rmt-command= rsh-command! ' +
    'volno-file= b|blocking-factor= B|read-full-records i|ignore-zeros record-size= H|format= V|label= ' +
    'a|auto-compress I|use-compress-program! j|bzip2 J|xz lzip lzma lzop no-auto-compress ' +
    'z|gzip|gunzip|ungzip Z|compress|uncompress zstd add-file= backup? C|directory= exclude= ' +
    'exclude-backups exclude-caches exclude-caches-all exclude-caches-under exclude-ignore= ' +
    'exclude-ignore-recursive= exclude-tag= exclude-tag-all= exclude-tag-under= exclude-vcs ' +
    'exclude-vcs-ignores X|exclude-from= T|files-from= h|dereference hard-dereference K|starting-file= ' +
    'newer-mtime= no-null no-recursion no-unquote null N|newer|after-date= one-file-system P|absolute-names ' +
    'recursion suffix= unquote wildcards wildcards-match-slash anchored ignore-case no-anchored ' +
    'no-ignore-case no-wildcards no-wildcards-match-slash checkpoint? checkpoint-action= clamp-mtime ' +
    'full-time index-file= l|check-links no-quote-chars= quote-chars= quoting-style= R|block-number ' +
    'show-defaults show-omitted-dirs show-transformed-names show-stored-names totals? utc v|verbose ' +
    'warning= w|interactive|confirmation o strip-components= transform|xform= posix xattrs no-xattrs ' +
    'xattrs-exclude= xattrs-include= acls no-acls selinux no-selinux',
);

const RSYNC = optionModel(
  'v|verbose info= debug= q|quiet no-motd c|checksum a|archive recursive|r relative|R no-implied-dirs ' +
    'b|backup backup-dir= suffix= u|update inplace append append-verify d|dirs mkpath l|links ' +
    'L|copy-links copy-unsafe-links safe-links munge-links k|copy-dirlinks K|keep-dirlinks H|hard-links ' +
    'p|perms E|executability chmod= A|acls X|xattrs o|owner g|group devices specials D t|times ' +
    'U|atimes open-noatime crtimes O|omit-dir-times J|omit-link-times super fake-super S|sparse ' +
    'preallocate n|dry-run W|whole-file checksum-choice|cc= x|one-file-system B|block-size= ' +
    'e|rsh! rsync-path! existing ignore-existing remove-source-files|remove-sent-files delete delete-before ' +
    'delete-during|del delete-delay delete-after delete-excluded ignore-missing-args ' +
    'delete-missing-args ignore-errors force max-delete= max-size= min-size= max-alloc= partial ' +
    'partial-dir= delay-updates m|prune-empty-dirs numeric-ids usermap= groupmap= chown= timeout= ' +
    'contimeout= I|ignore-times size-only modify-window|@= T|temp-dir= y|fuzzy compare-dest= ' +
    'copy-dest= link-dest= z|compress compress-choice|zc= compress-level|zl= skip-compress= ' +
    'C|cvs-exclude f|filter= F exclude= exclude-from= include= include-from= files-from= 0|from0 ' +
    's|secluded-args|protect-args trust-sender copy-as= address= port= sockopts= blocking-io ' +
    'outbuf= stats 8|8-bit-output h|human-readable progress P i|itemize-changes M|remote-option= ' +
    'out-format= log-file= log-file-format= password-file= early-input= list-only bwlimit= ' +
    'stop-after= stop-at= fsync write-batch= only-write-batch= read-batch= protocol= iconv= ' +
    'checksum-seed= 4|ipv4 6|ipv6 V|version help daemon config= dparam= no-detach',
  { negatable: true },
);

const ZIP = optionModel(
  'T|test unzip-command! r|recurse-paths m|move d|delete u|update f|freshen g|grow q|quiet ' +
    'v|verbose j|junk-paths x|exclude= i|include= O|output-file= b|temp-path= n|suffixes= ' +
    'e|encrypt P|password= y|symlinks D|no-dir-entries',
);

const MAN = gnu(
  'C|config-file= d|debug D|default warnings? f|whatis k|apropos K|global-apropos l|local-file ' +
    'w|where|path|location W|where-cat|location-cat c|catman R|recode= L|locale= m|systems= ' +
    'M|manpath= S|s|sections= e|extension= i|ignore-case I|match-case regex wildcard names-only ' +
    'a|all u|update no-subpages P|pager! r|prompt= 7|ascii E|encoding= no-hyphenation|nh ' +
    'no-justification|nj p|preprocessor= t|troff T|troff-device? H|html? X|gxditview? Z|ditroff',
);

const IPTABLES = gnu(
  'A|append= C|check= D|delete= I|insert= R|replace= L|list? S|list-rules? F|flush? Z|zero? N|new-chain= ' +
    'X|delete-chain? P|policy= E|rename-chain= p|protocol= s|source= d|destination= j|jump= g|goto= ' +
    'i|in-interface= o|out-interface= f|fragment t|table= v|verbose n|numeric x|exact line-numbers ' +
    'modprobe= w|wait? W|wait-interval= m|match= c|set-counters= 4|ipv4 6|ipv6 V',
);

// ripgrep runs `--pre CMD` with each searched file, and `--hostname-bin` for the hyperlink host.
const RG = optionModel(
  'A|after-context= B|before-context= C|context= e|regexp= f|file= g|glob= iglob= m|max-count= t|type= ' +
    'T|type-not= type-add= type-clear= E|encoding= j|threads= M|max-columns= d|max-depth|maxdepth= ' +
    'max-filesize= pre! pre-glob= hostname-bin! r|replace= sort= sortr= color= colors= context-separator= ' +
    'field-match-separator= field-context-separator= dfa-size-limit= regex-size-limit= engine= ' +
    'ignore-file= path-separator= hyperlink-format= generate= h|help V|version',
);

// hyperfine benchmarks shell commands: its operands, and the commands of these options.
const HYPERFINE = optionModel(
  'w|warmup= m|min-runs= M|max-runs= r|runs= s|setup! p|prepare! conclude! c|cleanup! reference! ' +
    'P|parameter-scan= D|parameter-step-size= L|parameter-list= S|shell! N i|ignore-failure style= sort= ' +
    'u|time-unit= export-asciidoc= export-csv= export-json= export-markdown= export-orgmode= show-output ' +
    'output= input= n|command-name= min-benchmarking-time= h|help V|version',
);

// GNU sort runs `--compress-program=PROG` on its temporary files (and PROG -d to read them back).
const SORT = optionModel(
  'b|ignore-leading-blanks d|dictionary-order f|ignore-case g|general-numeric-sort i|ignore-nonprinting ' +
    'M|month-sort h|human-numeric-sort n|numeric-sort R|random-sort random-source= sort= r|reverse ' +
    'V|version-sort batch-size= c check? C compress-program! debug files0-from= k|key= m|merge ' +
    'o|output= s|stable S|buffer-size= t|field-separator= T|temporary-directory= parallel= u|unique ' +
    'z|zero-terminated help version',
);

// The clock setters: GNU date (`-s`, `--s`, an operand) and util-linux hwclock; passwd's -d.
const DATE = gnu(
  'd|date= debug f|file= I|iso-8601? R|rfc-email rfc-3339= r|reference= resolution s|set= u|utc|universal uct',
);
const HWCLOCK = gnu(
  'r|show get s|hctosys w|systohc systz a|adjust set date= l|localtime u|utc directisa f|rtc= adjfile= test D|debug verbose update-drift noadjfile epoch= getepoch setepoch predict delay= param-get= param-set= vl-read vl-clear ul-read',
);
const PASSWD = gnu(
  'a|all d|delete e|expire h k|keep-tokens i|inactive= l|lock m|mindays= n q|quiet r|repository= R|root= P|prefix= S|status u|unlock w|warndays= x|maxdays= stdin',
);

/** The models, by normalised program name. */
export const PROGRAM_OPTIONS: Record<string, OptionModel> = {
  rm: RM,
  cp: CP,
  mv: MV,
  ln: LN,
  chmod: CHMOD,
  chown: CHOWN,
  chgrp: CHOWN,
  shred: SHRED,
  truncate: TRUNCATE,
  tee: TEE,
  sed: SED,
  tar: TAR,
  bsdtar: TAR,
  rsync: RSYNC,
  zip: ZIP,
  man: MAN,
  rg: RG,
  hyperfine: HYPERFINE,
  sort: SORT,
  iptables: IPTABLES,
  ip6tables: IPTABLES,
  'iptables-legacy': IPTABLES,
  'iptables-nft': IPTABLES,
  date: DATE,
  hwclock: HWCLOCK,
  passwd: PASSWD,
};

/** Two-letter short options some programs take (`zip -TT CMD`), rewritten to their long form. */
export const WORD_OPTIONS: Record<string, Record<string, string>> = {
  zip: { '-TT': '--unzip-command' },
};

/** `tar cvf x.tar dir`: an old-style first word is a cluster whose letters take their values in order. */
export function expandOldStyle(program: string, args: readonly string[]): readonly string[] {
  const model = own(PROGRAM_OPTIONS, program);
  const first = args[0];
  if (!model || !/^(tar|bsdtar)$/.test(program) || first === undefined || !/^[A-Za-z]+$/.test(first)) {
    return args;
  }
  const out: string[] = [];
  let next = 1;
  for (const letter of first) {
    const def = model.short.get(letter);
    out.push(`-${letter}`);
    if (def && def.arity === 'required' && next < args.length) out.push(args[next++] as string);
  }
  return [...out, ...args.slice(next)];
}
