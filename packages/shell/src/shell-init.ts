// Well-known shell initialisation: `eval "$(direnv hook bash)"`, `eval "$(pyenv init -)"`,
// `source .venv/bin/activate`, `. ~/.nvm/nvm.sh`. These set up the shell for a tool the user
// installed; the tool's own command is still a segment, and a sourced file is still listed in the
// scripts (so one the session wrote is refused). Matched on the whole construct, never on a word.

/** The command inside `eval "$(…)"` / `eval $(…)` / eval with backquotes, when the command is that alone. */
const EVAL_SUBSTITUTION = /^\s*eval\s+(["']?)(?:\$\(|`)\s*([^`$()]*?)\s*(?:\)|`)\1\s*$/;

/** Commands whose output is shell set-up code meant to be evaluated. */
const INIT_COMMANDS: readonly RegExp[] = [
  /^direnv hook (bash|zsh|fish|sh)$/,
  /^(pyenv|rbenv|nodenv|goenv|jenv|plenv|phpenv|luaenv|scalaenv|swiftenv|tfenv) init( -| --path| - (bash|zsh|sh))?$/,
  /^pyenv virtualenv-init -$/,
  /^ssh-agent( -[sc])?$/,
  /^(starship|zoxide|atuin|mcfly|oh-my-posh) init (bash|zsh|fish|sh)( --[\w-]+)*$/,
  /^(mise|rtx) activate (bash|zsh|fish|sh)$/,
  /^fnm env( --[\w-]+(=\S+)?)*$/,
  /^(\/(opt\/homebrew|usr\/local|home\/linuxbrew\/\.linuxbrew)\/bin\/)?brew shellenv( bash| zsh)?$/,
  /^opam env( --[\w-]+(=\S+)?)*$/,
  /^conda shell\.(bash|zsh) hook$/,
  /^(micromamba|mamba) shell hook( -s (bash|zsh)| --shell[= ](bash|zsh))?$/,
  /^dircolors( -b)?( ~?[\w./-]+)?$/,
  /^(lesspipe|lesspipe\.sh)$/,
  /^luarocks path( --[\w-]+)*$/,
  /^keychain --eval( --[\w-]+| -\w| [\w.-]+)*$/,
  /^thefuck --alias$/,
  /^register-python-argcomplete [\w.-]+$/,
  /^(kubectl|helm|gh|npm|pip|rustup) completion (bash|zsh)$/,
];

export function isKnownInitEval(text: string): boolean {
  const m = EVAL_SUBSTITUTION.exec(text);
  if (!m) return false;
  const command = (m[2] as string).replace(/\s+/g, ' ');
  return INIT_COMMANDS.some((re) => re.test(command));
}

/** `source <(CMD)` / `. <(CMD)`: the process-substitution spelling of the same set-up (kubectl's documented one). */
const SOURCE_SUBSTITUTION = /^\s*(?:source|\.)\s+<\(\s*([^`$()]*?)\s*\)\s*$/;

export function isKnownInitSource(text: string): boolean {
  const m = SOURCE_SUBSTITUTION.exec(text);
  if (!m) return false;
  const command = (m[1] as string).replace(/\s+/g, ' ');
  return INIT_COMMANDS.some((re) => re.test(command));
}

/** Files sourced to set up a tool: a virtualenv's activate, nvm, cargo, sdkman, conda. */
const INIT_FILES: readonly RegExp[] = [
  /^(\.\/)?[\w.-]+\/bin\/activate$/,
  /^(~|\$HOME|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)\/[\w.-]+\/bin\/activate$/,
  /^(~|\$HOME|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)(\/\.nvm)?\/nvm\.sh$/,
  /^(~|\$HOME|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)\/\.cargo\/env$/,
  /^(~|\$HOME|\/home\/[\w.-]+|\/root|\/Users\/[\w.-]+)\/\.sdkman\/bin\/sdkman-init\.sh$/,
  /^(\/opt\/conda|(~|\$HOME|\/home\/[\w.-]+|\/root)\/(mini|ana)conda3?)\/etc\/profile\.d\/conda\.sh$/,
  /^(~|\$HOME|\/home\/[\w.-]+|\/root)\/\.ghcup\/env$/,
];

export function isKnownInitFile(word: string): boolean {
  return INIT_FILES.some((re) => re.test(word));
}
