// Reading rule files from disk: the one place core touches the file system, so that policy loading
// is a single function every adapter shares. "builtin:NAME" names a catalogue shipped in contracts/.
import { existsSync, readFileSync } from 'node:fs';
import { builtinPolicyPath } from '@tollgate/contracts';
import { TollgateFault } from '../faults.js';
import { type CompileOptions, compilePolicy, type PolicySource } from './compile.js';
import type { Policy } from './types.js';

export function readPolicySource(file: string): PolicySource {
  const path = file.startsWith('builtin:') ? builtinPolicyPath(file.slice('builtin:'.length)) : file;
  if (!path || !existsSync(path)) {
    throw new TollgateFault('policy_unreadable', `policy file ${file} does not exist`, { file });
  }
  try {
    return { file, text: readFileSync(path, 'utf8') };
  } catch (error) {
    throw new TollgateFault(
      'policy_unreadable',
      `policy file ${file} cannot be read: ${(error as Error).message}`,
      {
        file,
      },
    );
  }
}

export function loadPolicy(files: readonly string[], options: CompileOptions = {}): Policy {
  return compilePolicy(files.map(readPolicySource), options);
}
