// `ansible HOSTS -m MODULE -a ARGS`: an ad-hoc task on every matched host. With the command, shell or
// raw module (command is the default), ARGS is a command line the hosts run, judged as shell like
// ssh's remote command. Check mode (-C/--check) runs no command.
import type { Handler } from './extract.js';
import { runValue } from './option-commands.js';
import { longOption } from './option-scan.js';

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

/** ansible's options that take a value (the short and long spellings). */
const VALUES = set(
  '-i --inventory --inventory-file -m --module-name -a --args -u --user --become-user --become-method ' +
    '-e --extra-vars -f --forks -l --limit -c --connection -T --timeout -B --background -P --poll ' +
    '--private-key --key-file -M --module-path --vault-password-file --vault-id -t --tree --playbook-dir ' +
    '--ssh-common-args --sftp-extra-args --scp-extra-args --ssh-extra-args',
);

/** Modules whose arguments are a command line. */
const COMMAND_MODULE = /^(ansible\.(builtin|legacy)\.)?(command|shell|raw)$/;

export const ansible: Handler = (ex, inv) => {
  ex.emit(inv);
  const { argv, unresolved } = inv;
  let module = 'command';
  let args: { value: string; unresolved: boolean } | undefined;
  let check = false;
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    const [name, inline] = optionParts(arg);
    if (name === '-C' || longOption(arg, 'check') === null) check = true;
    if (!VALUES.has(name)) continue;
    const value = inline ?? argv[i + 1];
    const valueUnresolved = unresolved[inline === undefined ? i + 1 : i] ?? false;
    if (inline === undefined) i++;
    if (value === undefined) continue;
    if (name === '-m' || name === '--module-name') module = value;
    if (name === '-a' || name === '--args') args = { value, unresolved: valueUnresolved };
  }
  if (check || args === undefined || !COMMAND_MODULE.test(module)) return;
  runValue(
    ex,
    inv,
    `ansible -m ${module.replace(/^ansible\.(builtin|legacy)\./, '')}`,
    args.value,
    args.unresolved,
  );
};

/** `--name=value` → [--name, value]; `-mshell` → [-m, shell]; anything else → [arg]. */
function optionParts(arg: string): [string, string | undefined] {
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=');
    return eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
  }
  if (/^-[ima]./.test(arg)) return [arg.slice(0, 2), arg.slice(2)];
  return [arg, undefined];
}
