// Decoding untrusted request bytes into a JSON value, with a coded fault for each way it can fail.
// Every adapter (hook stdin, HTTP body, CLI --file) goes through this one function.
import { MAX_DEPTH } from './canonical.js';
import { TollgateFault } from './faults.js';

export const DEFAULT_MAX_INPUT_BYTES = 1024 * 1024;

export interface DecodeOptions {
  maxBytes?: number;
  maxDepth?: number;
}

export function decodeJson(input: Uint8Array | string, options: DecodeOptions = {}): unknown {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
  if (size > maxBytes) {
    throw new TollgateFault('input_too_large', `input is ${size} bytes; the limit is ${maxBytes}`, {
      size,
      maxBytes,
    });
  }
  let text: string;
  if (typeof input === 'string') {
    text = input;
  } else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input);
    } catch {
      throw new TollgateFault('input_invalid_utf8', 'input is not valid UTF-8', {});
    }
  }
  if (text.trim() === '')
    throw new TollgateFault('input_malformed_json', 'input is empty; expected a JSON document');
  const depth = nestingDepth(text);
  const maxDepth = options.maxDepth ?? MAX_DEPTH;
  if (depth > maxDepth) {
    throw new TollgateFault('input_too_deep', `input nests ${depth} levels deep; the limit is ${maxDepth}`, {
      depth,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new TollgateFault('input_malformed_json', `input is not valid JSON: ${message}`, {
      position: positionOf(message),
    });
  }
}

// Counts bracket depth outside strings without building anything, so a 1,000-deep document is
// refused before JSON.parse and before any recursive walk.
function nestingDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 125 || c === 93) depth--;
  }
  return max;
}

function positionOf(message: string): number | undefined {
  const match = /position (\d+)/.exec(message);
  return match ? Number(match[1]) : undefined;
}
