// The words of a CLI's command line that say what it does (`gcloud compute instances delete vm-1`
// → compute, instances, delete, vm-1), as opposed to the values it is given. Most service CLIs take
// `--name VALUE` options that no table here knows, so a resource called `delete-me` or a filter of
// `purge` would read as a destroying verb in `path`. `operation` leaves out the word right after an
// option given once the command has begun (the option's likely value: `--function-name
// delete-expired`, `-n remove-later`) and stops after a read verb (`describe X`, `list`, `get X`),
// whose operands are what is read, and after a package verb (`install`, `add`, `download`), whose
// operands are package names. Options before the first command word (`splunk
// --accept-license remove index`) are usually switches, so the word after them still counts.
import { takesValue } from './options.js';

const MAX_WORDS = 4;

/** Words that make the command a read: what follows them names what is read. */
const READ_WORDS = new Set(
  'describe list ls lsd lsf lsl lsjson get show view read inspect info status cat tail whoami lookup query'.split(
    ' ',
  ),
);
/** Words whose operands are packages to fetch (`pip install remove-bg`, `poetry add django-reset`). */
const PACKAGE_WORDS = new Set(['install', 'add', 'download']);
/** The same as the first part of an operation name (`describe-instances`, `list-objects-v2`). */
const READ_PREFIXES = new Set('describe list get lookup filter search query head'.split(' '));

function isReadVerb(word: string): boolean {
  if (READ_WORDS.has(word)) return true;
  const dash = word.indexOf('-');
  return dash > 0 && READ_PREFIXES.has(word.slice(0, dash));
}

export function operationWords(
  args: readonly string[],
  globalValues: ReadonlySet<string> | undefined,
): string[] {
  const words: string[] = [];
  let begun = false;
  let afterOption = false;
  let afterDashDash = false;
  for (let i = 0; i < args.length && words.length < MAX_WORDS; i++) {
    const arg = args[i] as string;
    if (!afterDashDash && arg === '--') {
      afterDashDash = true;
      afterOption = false;
      continue;
    }
    if (!afterDashDash && arg.length > 1 && arg[0] === '-') {
      if (takesValue(globalValues, arg)) i++;
      else afterOption = begun && !arg.includes('=');
      continue;
    }
    if (afterOption) {
      afterOption = false;
      continue;
    }
    const word = arg.toLowerCase();
    words.push(word);
    begun = true;
    if (isReadVerb(word) || PACKAGE_WORDS.has(word)) break;
  }
  return words;
}
