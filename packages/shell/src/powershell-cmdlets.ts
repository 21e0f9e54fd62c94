// PowerShell cmdlets typed as the command (an agent whose shell is pwsh): `Remove-Item -Recurse
// -Force C:\proj\src`, `Clear-Content log.txt`, `Format-Volume -DriveLetter D`, `iex $code`. Each
// destructive cmdlet is bound the way PowerShell binds parameters (names case-insensitive, any
// unambiguous prefix: `-Rec`, `-fo`; `-Name:value`; `-Switch:$false`; positional parameters) and then
// judged as the POSIX command that does the same thing (`rm -r -f`, `truncate`, `tee`, `mkfs`,
// `shutdown`, `curl -X POST -d`), so the catalogue's existing rules and their exceptions (temp
// directories, loopback hosts) decide. `-WhatIf` makes it a dry run that does nothing. Invoke-
// Expression runs PowerShell code, which is never judged here: it is unresolved code.
import type { Env } from './expand.js';
import type { Extractor, Invocation } from './extract.js';
import { splitWords } from './prefixes.js';

type Kind = 'switch' | 'value';

interface Word {
  w: string;
  u: boolean;
}

interface Bound {
  switches: Set<string>;
  values: Map<string, Word[]>;
}

/** What a bound cmdlet does: the POSIX command judged in its place, or code that cannot be read. */
type Judged = Word[] | 'code' | null;

interface CmdletSpec {
  /** Parameters by lowercase full name (common parameters are added to every cmdlet). */
  params: Record<string, Kind>;
  /** PowerShell's documented parameter aliases (`-lp` for LiteralPath). */
  aliases?: Record<string, string>;
  /** Parameters bound by position, in order. */
  positional: string[];
  judge: (b: Bound) => Judged;
}

const COMMON: Record<string, Kind> = {
  whatif: 'switch',
  confirm: 'switch',
  verbose: 'switch',
  debug: 'switch',
  erroraction: 'value',
  warningaction: 'value',
  informationaction: 'value',
  progressaction: 'value',
  errorvariable: 'value',
  warningvariable: 'value',
  informationvariable: 'value',
  outvariable: 'value',
  outbuffer: 'value',
  pipelinevariable: 'value',
};
const COMMON_ALIASES: Record<string, string> = {
  wi: 'whatif',
  cf: 'confirm',
  vb: 'verbose',
  db: 'debug',
  ea: 'erroraction',
  wa: 'warningaction',
  infa: 'informationaction',
  proga: 'progressaction',
  ev: 'errorvariable',
  wv: 'warningvariable',
  iv: 'informationvariable',
  ov: 'outvariable',
  ob: 'outbuffer',
  pv: 'pipelinevariable',
};

const word = (w: string): Word => ({ w, u: false });
/** Items fed through the pipeline (`Get-ChildItem | Remove-Item`): unknown paths, still deleted. */
const PIPELINE = word('(pipeline input)');

/** A path parameter's items: PowerShell arrays are comma-separated (`a,b`). */
function items(b: Bound, ...names: string[]): Word[] {
  const out: Word[] = [];
  for (const name of names)
    for (const v of b.values.get(name) ?? [])
      for (const part of v.w.split(',')) if (part !== '') out.push({ w: part, u: v.u });
  return out;
}

const paths = (b: Bound): Word[] => {
  const found = items(b, 'path', 'literalpath', 'filepath');
  return found.length > 0 ? found : [PIPELINE];
};

const PATH_PARAMS: Record<string, Kind> = {
  path: 'value',
  literalpath: 'value',
  filter: 'value',
  include: 'value',
  exclude: 'value',
  credential: 'value',
  force: 'switch',
  stream: 'value',
};
const PATH_ALIASES = { lp: 'literalpath', pspath: 'literalpath' };

const REMOVE_ITEM: CmdletSpec = {
  params: { ...PATH_PARAMS, recurse: 'switch' },
  aliases: PATH_ALIASES,
  positional: ['path'],
  judge: (b) => [
    word('rm'),
    ...(b.switches.has('recurse') ? [word('-r')] : []),
    ...(b.switches.has('force') ? [word('-f')] : []),
    word('--'),
    ...paths(b),
  ],
};

const CLEAR_CONTENT: CmdletSpec = {
  params: PATH_PARAMS,
  aliases: PATH_ALIASES,
  positional: ['path'],
  judge: (b) => [word('truncate'), word('-s'), word('0'), word('--'), ...paths(b)],
};

/** Deleting or clearing a registry value (or a provider item's property) is a write to PATH/NAME. */
const itemProperty =
  (posix: string[]) =>
  (b: Bound): Judged => {
    const names = items(b, 'name');
    const at = paths(b);
    const targets = at.flatMap((p) =>
      (names.length > 0 ? names : [word('*')]).map((n) => ({ w: `${p.w}/${n.w}`, u: p.u || n.u })),
    );
    return [...posix.map(word), word('--'), ...targets];
  };

const ITEM_PROPERTY_PARAMS: Record<string, Kind> = { ...PATH_PARAMS, name: 'value' };

const CONTENT_PARAMS: Record<string, Kind> = {
  ...PATH_PARAMS,
  value: 'value',
  encoding: 'value',
  nonewline: 'switch',
  passthru: 'switch',
  asbytestream: 'switch',
};

/** Set-Content, Add-Content and Out-File write (or append) their input to a file, as `tee` does. */
const writes = (append: (b: Bound) => boolean) => (b: Bound) => [
  word('tee'),
  ...(append(b) ? [word('-a')] : []),
  word('--'),
  ...paths(b),
];

const SET_CONTENT: CmdletSpec = {
  params: CONTENT_PARAMS,
  aliases: PATH_ALIASES,
  positional: ['path', 'value'],
  judge: writes(() => false),
};
const ADD_CONTENT: CmdletSpec = { ...SET_CONTENT, judge: writes(() => true) };
const OUT_FILE: CmdletSpec = {
  params: {
    filepath: 'value',
    literalpath: 'value',
    encoding: 'value',
    append: 'switch',
    force: 'switch',
    noclobber: 'switch',
    width: 'value',
    nonewline: 'switch',
    inputobject: 'value',
  },
  aliases: { path: 'filepath', lp: 'literalpath', nc: 'noclobber' },
  positional: ['filepath', 'encoding'],
  judge: writes((b) => b.switches.has('append')),
};

/** Volumes, disks and partitions formatted, cleared or removed: data destroyed in place. */
const DISK: CmdletSpec = {
  params: {
    driveletter: 'value',
    path: 'value',
    objectid: 'value',
    filesystem: 'value',
    newfilesystemlabel: 'value',
    number: 'value',
    partitionnumber: 'value',
    disknumber: 'value',
    friendlyname: 'value',
    uniqueid: 'value',
    inputobject: 'value',
    partitionstyle: 'value',
    removedata: 'switch',
    removeoem: 'switch',
    full: 'switch',
    force: 'switch',
  },
  positional: ['driveletter'],
  judge: (b) => {
    const target = items(b, 'driveletter').map((d) => ({ w: `${d.w}:`, u: d.u }));
    const rest = items(b, 'path', 'number', 'disknumber', 'friendlyname', 'uniqueid', 'objectid');
    const all = [...target, ...rest];
    return [word('mkfs'), ...(all.length > 0 ? all : [word('(disk)')])];
  },
};

const POWER_PARAMS: Record<string, Kind> = {
  computername: 'value',
  credential: 'value',
  force: 'switch',
  wait: 'switch',
  timeout: 'value',
  for: 'value',
  delay: 'value',
  protocol: 'value',
  wsmanauthentication: 'value',
  asjob: 'switch',
};
const power = (program: string): CmdletSpec => ({
  params: POWER_PARAMS,
  aliases: { cn: 'computername' },
  positional: ['computername'],
  judge: () => [word(program)],
});

/** Invoke-WebRequest / Invoke-RestMethod: a method and a body are sent as curl would send them. */
const WEB: CmdletSpec = {
  params: {
    uri: 'value',
    method: 'value',
    custommethod: 'value',
    body: 'value',
    infile: 'value',
    form: 'value',
    headers: 'value',
    contenttype: 'value',
    outfile: 'value',
    credential: 'value',
    usebasicparsing: 'switch',
    usedefaultcredentials: 'switch',
    skipcertificatecheck: 'switch',
    passthru: 'switch',
    timeoutsec: 'value',
    websession: 'value',
    sessionvariable: 'value',
    useragent: 'value',
    proxy: 'value',
    authentication: 'value',
    token: 'value',
  },
  aliases: { url: 'uri', cm: 'custommethod', sv: 'sessionvariable' },
  positional: ['uri'],
  judge: (b) => {
    const method = [...items(b, 'custommethod'), ...items(b, 'method')][0];
    const body = items(b, 'body')[0] ?? items(b, 'form')[0];
    const file = items(b, 'infile')[0];
    return [
      word('curl'),
      ...(method ? [word('-X'), { w: method.w.toUpperCase(), u: method.u }] : []),
      ...(body ? [word('--data-binary'), body] : []),
      ...(file ? [word('--data-binary'), { w: `@${file.w}`, u: file.u }] : []),
      word('--'),
      ...items(b, 'uri'),
    ];
  },
};

/** Start-Process runs FILE with its argument list: that command is judged. */
const START_PROCESS: CmdletSpec = {
  params: {
    filepath: 'value',
    argumentlist: 'value',
    verb: 'value',
    workingdirectory: 'value',
    credential: 'value',
    redirectstandardinput: 'value',
    redirectstandardoutput: 'value',
    redirectstandarderror: 'value',
    windowstyle: 'value',
    environment: 'value',
    wait: 'switch',
    passthru: 'switch',
    nonewwindow: 'switch',
    usenewenvironment: 'switch',
    loaduserprofile: 'switch',
  },
  aliases: {
    pspath: 'filepath',
    path: 'filepath',
    args: 'argumentlist',
    lup: 'loaduserprofile',
    nnw: 'nonewwindow',
  },
  positional: ['filepath', 'argumentlist'],
  judge: (b) => {
    const file = items(b, 'filepath')[0];
    if (!file) return null;
    // The argument list is an array joined with spaces into one command line.
    const args = items(b, 'argumentlist').flatMap((a) => splitWords(a.w).map((w) => ({ w, u: a.u })));
    return [file, ...args];
  },
};

const INVOKE_EXPRESSION: CmdletSpec = {
  params: { command: 'value' },
  positional: ['command'],
  judge: () => 'code',
};

/**
 * Cmdlets by lowercase name, and their aliases that no common POSIX program shares (`ri` is Ruby's
 * documentation reader and `ac` the login accounting tool, so those two aliases are not read).
 */
const CMDLETS: Record<string, CmdletSpec> = {
  'remove-item': REMOVE_ITEM,
  del: REMOVE_ITEM,
  erase: REMOVE_ITEM,
  rd: REMOVE_ITEM,
  'clear-content': CLEAR_CONTENT,
  clc: CLEAR_CONTENT,
  'remove-itemproperty': {
    params: ITEM_PROPERTY_PARAMS,
    aliases: PATH_ALIASES,
    positional: ['path', 'name'],
    judge: itemProperty(['rm', '-f']),
  },
  rp: {
    params: ITEM_PROPERTY_PARAMS,
    aliases: PATH_ALIASES,
    positional: ['path', 'name'],
    judge: itemProperty(['rm', '-f']),
  },
  'clear-itemproperty': {
    params: ITEM_PROPERTY_PARAMS,
    aliases: PATH_ALIASES,
    positional: ['path', 'name'],
    judge: itemProperty(['truncate', '-s', '0']),
  },
  'set-content': SET_CONTENT,
  'add-content': ADD_CONTENT,
  'out-file': OUT_FILE,
  'format-volume': DISK,
  'clear-disk': DISK,
  'initialize-disk': DISK,
  'remove-partition': DISK,
  'stop-computer': power('shutdown'),
  'restart-computer': power('reboot'),
  'invoke-webrequest': WEB,
  iwr: WEB,
  'invoke-restmethod': WEB,
  irm: WEB,
  'start-process': START_PROCESS,
  saps: START_PROCESS,
  'invoke-expression': INVOKE_EXPRESSION,
  iex: INVOKE_EXPRESSION,
};

/** The full name a parameter as written stands for, or the candidates when it is ambiguous. */
function parameter(spec: CmdletSpec, given: string): string[] {
  const exact = spec.aliases?.[given] ?? COMMON_ALIASES[given];
  if (exact !== undefined) return [exact];
  if (Object.hasOwn(spec.params, given) || Object.hasOwn(COMMON, given)) return [given];
  return [...Object.keys(spec.params), ...Object.keys(COMMON)].filter((p) => p.startsWith(given));
}

const kindOf = (spec: CmdletSpec, name: string): Kind | undefined =>
  Object.hasOwn(spec.params, name)
    ? spec.params[name]
    : Object.hasOwn(COMMON, name)
      ? COMMON[name]
      : undefined;

/** Bind a cmdlet's arguments as PowerShell does: named parameters first, the rest by position. */
function bindCmdlet(spec: CmdletSpec, argv: readonly string[], unresolved: readonly boolean[]): Bound {
  const bound: Bound = { switches: new Set(), values: new Map() };
  const loose: Word[] = [];
  const add = (name: string, value: Word) =>
    bound.values.set(name, [...(bound.values.get(name) ?? []), value]);
  let named = true;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    const u = unresolved[i] ?? false;
    if (named && arg === '--') {
      named = false;
      continue;
    }
    const m = named ? /^-([A-Za-z?][\w?]*)(?::(.*))?$/s.exec(arg) : null;
    if (!m) {
      loose.push({ w: arg, u });
      continue;
    }
    const names = parameter(spec, (m[1] as string).toLowerCase());
    const inline = m[2];
    const kinds = names.map((n) => kindOf(spec, n));
    // One value parameter: its value is inline or the next word.
    if (names.length === 1 && kinds[0] === 'value') {
      if (inline !== undefined) add(names[0] as string, { w: inline, u });
      else if (i + 1 < argv.length) {
        add(names[0] as string, { w: argv[i + 1] as string, u: unresolved[i + 1] ?? false });
        i++;
      }
      continue;
    }
    // A switch, `-Switch:$false` turning it off. An unknown or ambiguous name makes PowerShell stop
    // with an error, unless our list is shorter than the cmdlet's: its switch candidates are set,
    // so a misspelled `-f` still counts as -Force.
    const off = inline !== undefined && /^\$false$|^0$/i.test(inline);
    for (const [k, name] of names.entries()) {
      if (kinds[k] !== 'switch') continue;
      if (off) bound.switches.delete(name);
      else bound.switches.add(name);
    }
  }
  // Positional words fill the positional parameters not bound by name, in order.
  const open = spec.positional.filter((p) => !bound.values.has(p));
  for (const [k, w] of loose.entries()) {
    const name = open[k];
    if (name !== undefined) add(name, w);
  }
  return bound;
}

/** Judge a cmdlet invocation; true when `program` is one this module models. */
/** `iex` is also Elixir's shell: `iex`, `iex -S mix`, `iex --sname a` are that, not Invoke-Expression. */
const ELIXIR_IEX =
  /^(-S|--sname|--name|--cookie|--remsh|--erl|--dot-iex|--werl|--no-pry|-r|-pa|-pz|--hidden)$/;

export function runCmdlet(ex: Extractor, inv: Invocation, env: Env, program: string): boolean {
  const spec = Object.hasOwn(CMDLETS, program) ? CMDLETS[program] : undefined;
  if (!spec) return false;
  if (program === 'iex' && (inv.argv.length === 1 || ELIXIR_IEX.test(inv.argv[1] ?? ''))) return false;
  const bound = bindCmdlet(spec, inv.argv, inv.unresolved);
  const judged = spec.judge(bound);
  if (judged === 'code') {
    ex.flag('unresolved_code', inv.text);
    return true;
  }
  // -WhatIf only reports what would happen.
  if (judged === null || bound.switches.has('whatif')) return true;
  ex.resolve(
    {
      ...inv,
      argv: judged.map((w) => w.w),
      unresolved: judged.map((w) => w.u),
      via: [...inv.via, inv.argv[0] ?? program],
    },
    env,
  );
  return true;
}
