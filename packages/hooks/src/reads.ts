// Which Claude Code tools are reads whose output the gate records as observations, and how a tool
// response becomes the text evidence is quoted from.

/** Built-in tools that only read; `mcp__*` tools are recorded too (their output is what the model saw). */
const READ_TOOLS = new Set(['Bash', 'Read', 'Grep', 'Glob', 'WebFetch', 'WebSearch', 'LS', 'NotebookRead']);

export function isReadTool(tool: string): boolean {
  return READ_TOOLS.has(tool) || tool.startsWith('mcp__');
}

const MAX_TEXT = 4 * 1024 * 1024;

/**
 * The text of a tool response: a string as it is; Bash's stdout then stderr; otherwise every string
 * leaf in document order (a Read's file content, a Glob's file names, an MCP result's text parts),
 * so a quote of what the model saw is found without JSON escaping in the way.
 */
export function responseText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (response === null || typeof response !== 'object')
    return response === undefined ? '' : String(response);
  const r = response as Record<string, unknown>;
  if (typeof r.stdout === 'string' || typeof r.stderr === 'string') {
    const out = typeof r.stdout === 'string' ? r.stdout : '';
    const err = typeof r.stderr === 'string' && r.stderr !== '' ? r.stderr : '';
    return err === '' ? out : out === '' ? err : `${out}\n${err}`;
  }
  const parts: string[] = [];
  let size = 0;
  const walk = (value: unknown, depth: number): void => {
    if (size > MAX_TEXT || depth > 32) return;
    if (typeof value === 'string') {
      parts.push(value);
      size += value.length;
    } else if (typeof value === 'number' || typeof value === 'boolean') {
      parts.push(String(value));
    } else if (Array.isArray(value)) for (const v of value) walk(v, depth + 1);
    else if (value !== null && typeof value === 'object')
      for (const v of Object.values(value)) walk(v, depth + 1);
  };
  walk(response, 0);
  return parts.join('\n');
}
