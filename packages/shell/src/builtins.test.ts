// Builtins that install code to run later, and substitutions wherever they occur: each mechanism
// is dynamic (so the command is gated) or its inner command is found.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

const kinds = (command: string) => parseShell(command).dynamic.map((d) => d.kind);
const programs = (command: string) => parseShell(command).segments.map((s) => s.program);

describe('builtins that define later behaviour', () => {
  it.each([
    ['alias ls="rm -rf ~"', 'alias_definition'],
    ["alias -- g='git push -f'", 'alias_definition'],
    ['alias "$NAME"', 'alias_definition'],
    ['hash -p /tmp/evil ls', 'hash_path'],
    ['hash -rp ./x git', 'hash_path'],
    ['enable -f ./evil.so evil', 'enable_builtin'],
    ['enable -n echo', 'enable_builtin'],
    ['complete -C "rm -rf x" ls', 'completion_command'],
    ['compgen -C ./run x', 'completion_command'],
    ["compgen -W '$(rm -rf x)' y", 'completion_command'],
    ['complete -F _f git', 'completion_command'],
    [`bind -x '"\\C-x": rm -rf x'`, 'bind_command'],
    ["mapfile -C 'rm -rf x' -c 1 arr < f", 'mapfile_callback'],
    ['readarray -tC cb arr < f', 'mapfile_callback'],
    [`PS4='$(rm -rf x)'; set -x; ls`, 'prompt_substitution'],
    ['export PS4="\\`id\\`"; bash -x s.sh', 'prompt_substitution'],
    [`PS1='$(touch /tmp/p)' bash -i`, 'prompt_substitution'],
    ['declare PS0="$X"', 'prompt_substitution'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter transformation, not a template
    ['v=\'$(touch /tmp/p)\'; echo "${v@P}"', 'prompt_substitution'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter transformation, not a template
    ['printf %s ${arr[0]@P}', 'prompt_substitution'],
    ["PROMPT_COMMAND='rm -rf x'", 'prompt_command'],
    ['export PROMPT_COMMAND=./hook.sh', 'prompt_command'],
    ['export BASH_ENV=./evil.sh; bash -c true', 'startup_variable'],
    ['typeset ENV=./evil.sh', 'startup_variable'],
    // Arithmetic subscripts run their substitutions when bash evaluates them.
    ["let 'a[$(rm -rf ~)]'", 'arithmetic_substitution'],
    ["declare -i x='a[$(rm -rf ~)]'", 'arithmetic_substitution'],
    ["declare 'a[$(rm -rf ~)]=1'", 'arithmetic_substitution'],
    ["printf -v 'a[$(rm -rf ~)]' x", 'arithmetic_substitution'],
    ["read -r 'a[`rm -rf ~`]' <<< x", 'arithmetic_substitution'],
    ["test -v 'a[$(rm -rf ~)]'", 'arithmetic_substitution'],
    ["[[ 'a[$(rm -rf ~)]' -eq 0 ]]", 'arithmetic_substitution'],
    ["(( x = 'a[$(rm -rf ~)]' ))", 'arithmetic_substitution'],
    ["echo $(( 'a[$(rm -rf ~)]' ))", 'arithmetic_substitution'],
    ["x='a[$(rm -rf ~)]'; (( x ))", 'arithmetic_substitution'],
    ["declare -a 'a=($(rm -rf ~))'", 'declare_reparse'],
    // Bash's lookup tables: an entry is a hash path or an alias.
    ['BASH_CMDS[ls]=/bin/rm; ls -rf ~', 'hash_path'],
    ['declare -A BASH_CMDS=([ls]=/bin/rm)', 'hash_path'],
    ['printf -v "BASH_CMDS[ls]" /bin/rm', 'hash_path'],
    ['read "BASH_CMDS[ls]"', 'hash_path'],
    ["BASH_ALIASES[ll]='rm -rf ~'", 'alias_definition'],
    // A name the shell works out may be any variable (CDPATH, PATH, NODE_OPTIONS).
    ['x=CDPATH; printf -v $x /w; cd home', 'dynamic_name'],
    ['x=CDPATH; declare "$x=/w"', 'dynamic_name'],
    ['read "$x"', 'dynamic_name'],
    ['x=NODE_OPTIONS; export "$x=--require ./e.js"; node -e 1', 'dynamic_name'],
    ['set -k; git status GIT_CONFIG_COUNT=1', 'keyword_assignments'],
    ['set -o keyword; ls', 'keyword_assignments'],
    ["history -s ': -rf ~'; fc -s :=rm", 'history_rerun'],
    ['history -r saved; fc -s', 'history_rerun'],
    ['fc', 'history_rerun'],
    // A PATH that searches the project first may put a file the session wrote in the place of ls.
    ['PATH=./bin:$PATH ls', 'path_in_project'],
    ['export PATH=bin:$PATH; git status', 'path_in_project'],
    ['PATH=:$PATH ls', 'path_in_project'],
    ['PATH=$PWD/bin:$PATH ls', 'path_in_project'],
    ['env PATH=./bin ls', 'path_in_project'],
    ['printf -v PATH %s ./bin; ls', 'dynamic_name'],
    ['read PATH < f; ls', 'dynamic_name'],
    ['for PATH in bin:/usr/bin; do git status; done', 'dynamic_name'],
    ["for PS4 in '$(rm -rf ~)'; do set -x; :; done", 'dynamic_name'],
    ['for GIT_EXTERNAL_DIFF in x.sh; do git diff; done', 'dynamic_name'],
    ['declare -n p=PATH; p=bin:/usr/bin; git status', 'dynamic_name'],
    ['declare -n p="$X"; p=1', 'dynamic_name'],
    ['printf -vPATH bin:/usr/bin; git status', 'dynamic_name'],
    ['read -aPATH <<< bin; git status', 'dynamic_name'],
    ['PATH=/proc/self/cwd/bin:$PATH git status', 'path_in_project'],
    ['export PATH=/tmp/evil:$PATH; git status', 'path_in_project'],
    // Search paths outside the project, or under a PWD the command moved or assigned.
    ['PYTHONPATH=/tmp/evil python3 x.py', 'search_path_outside'],
    ['PYTHONPATH=src:../x python3 x.py', 'search_path_outside'],
    ['cd /tmp && PYTHONPATH=$PWD/evil python3 x.py', 'search_path_outside'],
    ['PWD=/tmp/e; PYTHONPATH=$PWD/src python3 x.py', 'search_path_outside'],
    ['LD_LIBRARY_PATH=~/lib ./app', 'search_path_outside'],
  ])('%s → %s', (command, kind) => {
    expect(kinds(command)).toContain(kind);
  });

  it.each([
    'alias',
    'alias ll',
    'hash -r',
    'hash',
    'enable',
    'enable -a',
    'complete -p',
    'bind -l',
    'mapfile -t lines < f',
    "PS1='\\u@\\h '",
    'PS4="+ "; set -x',
    'BASH_ENV= bash -c true',
    'set -euo pipefail',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell parameter transformations, not templates
    'v=abc; echo "${v@U}" "${v@Q}"',
    'fc -l',
    'history 10',
    '(( 3 * 4 ))',
    '(( n = 3 * 4 ))',
    'let i=i+1',
    "printf -v out '%s' x",
    'declare -i n=5',
    'read -r line',
    'export PATH="$HOME/.cargo/bin:$PATH"',
    'export PATH=$PATH:/usr/local/go/bin',
    'PATH="$PWD/node_modules/.bin:$PATH" vitest run',
    'VIRTUAL_ENV=.venv PATH=.venv/bin:$PATH pytest',
    'export PATH="$PWD/.venv/bin:$PATH" && pytest',
    'PATH=/usr/bin:/bin make',
    'PYTHONPATH=$PWD/src pytest',
    'PYTHONPATH=src:$PYTHONPATH pytest',
    'LD_LIBRARY_PATH=build/lib ./build/app',
  ])('%s is static', (command) => {
    expect(kinds(command)).toEqual([]);
  });

  it('trap actions are read as commands', () => {
    expect(programs("trap 'rm -rf /x' EXIT")).toContain('rm');
    expect(kinds('trap "$CLEANUP" EXIT')).toContain('unresolved_code');
  });
});

describe('positional parameters the command sets itself', () => {
  it('does not bind $1 after set -- or shift', () => {
    const rm = (command: string) => parseShell(command).segments.find((s) => s.program === 'rm');
    expect(rm(`bash -c 'rm $1' _ safe`)?.args).toEqual(['safe']);
    expect(rm(`bash -c 'set -- -rf /; rm $1 $2' _ safe x`)?.unresolved).toBe(true);
    expect(rm(`bash -c 'shift; rm $1' _ safe /`)?.unresolved).toBe(true);
  });
});

describe('substitutions wherever they occur', () => {
  it.each([
    'a=( $(rm -rf dir) )',
    'a=(x "$(rm -rf dir)" y)',
    'x=$(rm -rf d)',
    'export y=$(rm -rf d)',
    'local z=`rm -rf d`',
    'declare -a w=($(rm -rf d))',
    'echo > "$(rm -rf d)"',
    'cat <<EOF\n$(rm -rf d)\nEOF',
    'for ((i=$(rm -rf d); i<3; i++)); do :; done',
    '(( x = $(rm -rf d) ))',
    'echo ${x:-$(rm -rf d)}',
    'case $(rm -rf d) in *) ;; esac',
    '[[ -n $(rm -rf d) ]]',
    'echo $(( $(rm -rf d) + 1 ))',
  ])('%s runs rm', (command) => {
    expect(programs(command)).toContain('rm');
  });
});
