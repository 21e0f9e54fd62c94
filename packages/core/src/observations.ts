// Ledger entries: a read's source, a digest of its whole output and a bounded excerpt to check
// quotes against.
import type { Observation, Source } from '@tollgate/contracts';
import { validate } from '@tollgate/contracts';
import { sourceKey } from './call.js';
import { sha256Hex } from './canonical.js';
import { TollgateFault } from './faults.js';

export interface ObservationInput {
  session: string;
  agent?: string;
  source: Source;
  output: string;
  exit_code?: number;
  /** Who saw the read: "cli-observe", "hook:claude-code", "mcp-proxy", "http", "probe". */
  recordedBy: string;
  /** True only where the gate itself saw the read pass. */
  attested: boolean;
  /** Where the read ran (a hook's cwd): the files a `cat FILE` read are resolved from there. */
  cwd?: string;
  /**
   * read (default): output of a read. result: what a dispatched call returned, for preconditions
   * (evidence only when the tool is a read). directive: what the agent was told, never evidence.
   */
  kind?: 'read' | 'result' | 'directive';
}

/** The longest working directory kept with a read (the schema's bound). */
const MAX_CWD = 4096;

export function observationFrom(
  input: ObservationInput,
  id: string,
  now: number,
  excerptBytes: number,
): Observation {
  const source = validate<Source>('source', input.source);
  if (!source.valid)
    throw new TollgateFault(
      'input_invalid',
      `observation source: ${source.problems[0]?.message ?? 'invalid'}`,
    );
  if (typeof input.session !== 'string' || input.session === '')
    throw new TollgateFault('input_invalid', 'observation needs a session');
  // The library takes plain objects from JavaScript callers too: a field of the wrong type would be
  // stored as an observation its own schema refuses (found by test/fuzz/gate.test.ts).
  if (input.output === undefined || input.output === null)
    throw new TollgateFault('input_invalid', 'observation needs the output of the read');
  if (typeof input.recordedBy !== 'string' || input.recordedBy === '')
    throw new TollgateFault('input_invalid', 'observation needs recordedBy (who saw the read)');
  if (typeof input.attested !== 'boolean')
    throw new TollgateFault('input_invalid', 'observation needs attested: true or false');
  if (input.agent !== undefined && typeof input.agent !== 'string')
    throw new TollgateFault('input_invalid', "observation's agent must be a string");
  if (input.exit_code !== undefined && !Number.isSafeInteger(input.exit_code))
    throw new TollgateFault('input_invalid', "observation's exit_code must be a whole number");
  const output = typeof input.output === 'string' ? input.output : String(input.output);
  const observation: Observation = {
    id,
    session: input.session,
    source: source.data,
    source_key: sourceKey(source.data),
    output_digest: sha256Hex(output),
    excerpt: cutUtf8(output, excerptBytes),
    output_bytes: Buffer.byteLength(output),
    observed_at: new Date(now).toISOString(),
    recorded_by: input.recordedBy,
    attested: input.attested,
  };
  // A shell read's output depends on where it ran (`git log`, `ls`): kept, so it is evidence there only.
  if (
    typeof input.cwd === 'string' &&
    input.cwd.startsWith('/') &&
    input.cwd.length <= MAX_CWD &&
    typeof source.data === 'string'
  )
    observation.cwd = input.cwd;
  if (input.agent !== undefined) observation.agent = input.agent;
  if (input.exit_code !== undefined) observation.exit_code = input.exit_code;
  if (input.kind !== undefined && input.kind !== 'read') observation.kind = input.kind;
  return observation;
}

/** The longest prefix of `text` that fits in `bytes` UTF-8 bytes, never splitting a character. */
export function cutUtf8(text: string, bytes: number): string {
  if (text.length * 3 <= bytes) return text;
  const full = Buffer.from(text, 'utf8');
  if (full.length <= bytes) return text;
  let end = bytes;
  // A continuation byte (10xxxxxx) just past the cut means the cut splits a character.
  while (end > 0 && ((full[end] ?? 0) & 0xc0) === 0x80) end--;
  return full.subarray(0, end).toString('utf8');
}
