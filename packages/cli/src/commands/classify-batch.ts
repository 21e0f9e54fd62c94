// classify --batch: JSON lines in, one result line out per input line, in order. Output is
// written in large chunks (one write per input chunk) because per-line writes dominate at 20k/s.
import type { Readable, Writable } from 'node:stream';
import { decodeJson, isFault, type Policy } from '@tollgate/core';
import { classifyCommand } from './classify-result.js';

const MAX_LINE = 1024 * 1024;

export async function classifyBatch(policy: Policy, input: Readable, output: Writable): Promise<void> {
  let pending = '';
  let lineNo = 0;
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const flush = async (text: string) => {
    if (text !== '' && !output.write(text)) await new Promise((r) => output.once('drain', r));
  };
  for await (const chunk of input) {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true });
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    if (pending.length > MAX_LINE) {
      lines.push(pending);
      pending = '';
    }
    let out = '';
    for (const line of lines) {
      lineNo++;
      out += `${JSON.stringify(resultFor(policy, line, lineNo))}\n`;
    }
    await flush(out);
  }
  pending += decoder.decode();
  if (pending.trim() !== '') await flush(`${JSON.stringify(resultFor(policy, pending, lineNo + 1))}\n`);
}

function resultFor(policy: Policy, line: string, lineNo: number): object {
  if (line.trim() === '')
    return refused(lineNo, 'input_malformed_json', 'empty line; expected {"command": "..."}');
  let doc: unknown;
  try {
    doc = decodeJson(line);
  } catch (error) {
    return refused(lineNo, isFault(error) ? error.code : 'input_malformed_json', (error as Error).message);
  }
  const command = (doc as { command?: unknown } | null)?.command;
  if (typeof command !== 'string')
    return refused(
      lineNo,
      'input_malformed_json',
      'expected an object {"command": "..."} with a string command',
    );
  return classifyCommand(policy, command);
}

// A line that cannot be read is gated: what cannot be shown safe is not let through.
function refused(line: number, code: string, message: string): object {
  return {
    irreversible: false,
    gated: true,
    class: 'unknown-dynamic',
    rules: [],
    error: { code, message, line },
  };
}
