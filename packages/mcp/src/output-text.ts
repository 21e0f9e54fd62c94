// A tool result as the text the ledger keeps: its text blocks (what the model reads), placeholders
// for binary blocks, or the structured content when there is no text at all.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource':
        parts.push(
          'text' in block.resource ? String(block.resource.text) : `[resource ${block.resource.uri}]`,
        );
        break;
      case 'resource_link':
        parts.push(`[resource ${block.uri}]`);
        break;
      default:
        parts.push(`[${block.type} ${block.mimeType}, ${block.data.length} base64 characters]`);
    }
  }
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  return parts.join('\n');
}
