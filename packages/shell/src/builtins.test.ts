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

// Bash evaluates arithmetic recursively: a subscript's `$(…)` runs, whatever quotes surround it,
// and so does one in a value the command reads at run time once arithmetic evaluates it.
const arithmeticCode = (command: string) => kinds(command).includes('arithmetic_substitution');

describe('substitutions where bash evaluates arithmetic', () => {
  it.each([
    `ls -d \${arr['$(touch /tmp/owned)']}`,
    `echo \${!arr['$(touch /tmp/owned)']}`,
    `echo \${#arr['$(touch /tmp/owned)']}`,
    `echo \${arr['$(touch /tmp/owned)']//a/b}`,
    `echo \${arr['$(touch /tmp/owned)']@U}`,
    `echo \${arr['$(touch /tmp/owned)']:=z}`,
    `echo \${arr['$(touch /tmp/owned)']:1:2}`,
    `wc -c <<< \${arr['$(touch /tmp/owned)']}`,
    `case \${arr['$(touch /tmp/owned)']} in *) ;; esac`,
    `for w in \${arr['$(touch /tmp/owned)']}; do :; done`,
    `echo \${arr['\`touch /tmp/owned\`']}`,
    `echo \${arr[$'\\x24(touch /tmp/owned)']}`,
    `echo \${arr[$"$(touch /tmp/owned)"]}`,
    `echo \${arr[b[\\$(touch /tmp/owned)]]}`,
    `set -- a b; echo \${@:'v[$(touch /tmp/owned)]'}`,
    `set -- a b; echo \${*:1:'v[$(touch /tmp/owned)]'}`,
    `echo \${1:'v[$(touch /tmp/owned)]'}`,
    `typeset -a list=(['v[$(touch /tmp/owned)]']=1)`,
    `local -a list=([0]=1 ['v[\`touch /tmp/owned\`]']=2)`,
    `list=(['v[$(touch /tmp/owned)]']=1)`,
    `echo $(( $(cat /tmp/n) * 3 ))`,
    `echo $[ $(head -1 n.txt) ]`,
    `(( $(cat n.txt) > 2 ))`,
    `[[ 4 -lt $(cat n.txt) ]]`,
    `for (( k=$(cat n.txt); k>0; k-- )); do :; done`,
    `let "k = $(cat n.txt)"`,
  ])('%s', (command) => {
    expect(arithmeticCode(command)).toBe(true);
  });
});

describe('values read at run time, then evaluated as arithmetic', () => {
  it.each([
    'while read -r line; do echo $(( line + 1 )); done < counts.txt',
    'v=$(cat /tmp/n); echo $(( v ))',
    'v=`head -1 n.txt`; echo $[v*2]',
    'v=$(git show -s --format=%B); (( v > 1 ))',
    'read v < n.txt; (( v++ ))',
    'read v < n.txt; let "w = v"',
    'read v < n.txt; [[ $v -gt 3 ]]',
    'read v < n.txt; [[ 3 -ne v ]]',
    'read v < n.txt; test -v "$v"',
    'read v < n.txt; [[ -v $v ]]',
    `read v < n.txt; echo "\${!v}"`,
    `read v < n.txt; list=(1 2); echo \${list[$v]}`,
    `read v < n.txt; echo "\${list[v+1]}"`,
    `read v < n.txt; echo \${s:1:v}`,
    'read v < n.txt; for ((k=0; k<v; k++)); do :; done',
    'local -i total; total=$(cat n.txt)',
    'typeset -i total=$(cat n.txt)',
    "declare -i total; read total <<< 'q[$(touch /tmp/owned)]'",
    'readarray -t rows < n.txt; echo $(( rows[0] ))',
    'mapfile rows < n.txt; echo $(( MAPFILE + 1 ))',
    'read -u 4 v 4< n.txt; echo $(( v ))',
    'read < n.txt; echo $(( REPLY ))',
    'v=$(cat n.txt); w="$v"; echo $(( w ))',
    'echo $(( w )); w=$(cat n.txt)',
    'for f in *.txt; do echo $(( f )); done',
    'for f in $(cat list); do echo $(( f )); done',
    'printf -v v %s "$(cat n.txt)"; echo $(( v ))',
    `echo \${v:=$(cat n.txt)}; echo $(( v ))`,
  ])('%s', (command) => {
    expect(arithmeticCode(command)).toBe(true);
  });

  it.each([
    // A variable name a builtin assigns or tests: its subscript is evaluated when it runs.
    "k=$(cat n.txt); printf -v 'slot[$k]' %s x",
    'k=$(cat n.txt); printf -v "slot[$k]" %s x',
    'k=$(cat n.txt); printf -vslot[$k] %s x',
    'k=$(cat n.txt); declare "slot[$k]=1"',
    "k=$(cat n.txt); typeset 'slot[$k]=1'",
    'read k < n.txt; local "slot[$k]=1"',
    'read k < n.txt; readonly "slot[$k]=1"',
    'read k < n.txt; export "slot[$k]=1"',
    "read k < n.txt; declare -a 'slot[$k]'",
    "read k < n.txt; declare -n ref='slot[$k]'",
    "k=$(cat n.txt); read -r 'slot[$k]' <<< x",
    "k=$(cat n.txt); unset 'slot[$k]'",
    "k=$(cat n.txt); let 'slot[$k]=1'",
    'k=$(cat n.txt); (( slot[$k]=1 ))',
    "k=$(cat n.txt); [[ -v 'slot[$k]' ]]",
    'k=$(cat n.txt); j=$k; declare "slot[$j]=1"',
    'printf -v k %s "$(cat n.txt)"; declare "slot[$k]=1"',
  ])('%s', (command) => {
    expect(arithmeticCode(command)).toBe(true);
  });

  it.each([
    `list=(a b c); k=1; echo "\${list[$k]}" \${list[k+1]}`,
    `list=(a b c); echo \${#list[@]} "\${list[@]:1:2}"`,
    'n=4; echo $(( n + 1 ))',
    'for ((k=0; k<10; k++)); do echo $k; done',
    'k=0; k=$((k+1)); echo $(( k * 2 ))',
    'echo $(( $(wc -l < notes.txt) + 1 ))',
    'echo $(( $(git ls-files | wc -l) / 2 ))',
    'start=$(date +%s); sleep 1; echo $(( $(date +%s) - start ))',
    'make -j$(( $(nproc) + 1 ))',
    'for k in $(seq 1 4); do echo $(( k * 2 )); done',
    'for k in 1 2 3; do echo $(( k * 2 )); done',
    `read line < notes.txt; echo \${#line} $(( \${#line} + 1 ))`,
    'while read -r line; do echo "$line"; done < notes.txt',
    'echo $(( COUNT + 1 ))',
    `echo \${x:-$(cat n.txt)}`,
    'for k in 1 2 3; do declare "slot[$k]=x"; done',
    "k=2; printf -v 'slot[$k]' %s x",
    'printf -v out %s "$(cat n.txt)"',
    'declare -a list=(a b)',
    'k=$(cat n.txt); declare "copy=$k"',
  ])('%s passes', (command) => {
    expect(arithmeticCode(command)).toBe(false);
  });
});
