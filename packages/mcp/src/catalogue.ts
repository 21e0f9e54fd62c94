// The upstream's tools as last listed: by name for calls (existence, annotations, input schema), and
// as hints for the gate. Refilled on demand; emptied when the upstream says its list changed.

import type { ListToolsResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHints } from '@tollgate/core';
import type { Upstream } from './upstream.js';

// Upstream pagination is followed this far, so a server that loops its cursor cannot hang the proxy.
const MAX_PAGES = 100;
// An unknown name triggers a fresh listing at most this often (tools may appear without a notice).
const REFRESH_MS = 1000;

export class ToolCatalogue {
  private tools = new Map<string, Tool>();
  private complete = false;
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(private readonly upstream: Upstream) {}

  /** One page of the upstream's list, as it sent it; remembered for later calls. */
  async page(cursor?: string): Promise<ListToolsResult> {
    const result = await this.upstream.listTools(cursor);
    for (const tool of result.tools) this.tools.set(tool.name, tool);
    return result;
  }

  async find(name: string): Promise<Tool | undefined> {
    const known = this.tools.get(name);
    if (known) return known;
    if (!this.complete || Date.now() - this.loadedAt > REFRESH_MS) await this.loadAll();
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  all(): Tool[] {
    return [...this.tools.values()];
  }

  async ensureLoaded(): Promise<void> {
    if (!this.complete) await this.loadAll();
  }

  /** Annotations as the gate's fallback classifier reads them; undefined for a tool never listed. */
  readonly hints = (name: string): ToolHints | undefined => {
    const tool = this.tools.get(name);
    return tool ? hintsOf(tool) : undefined;
  };

  invalidate(): void {
    this.tools = new Map();
    this.complete = false;
  }

  private loadAll(): Promise<void> {
    this.loading ??= (async () => {
      const fresh = new Map<string, Tool>();
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const result = await this.upstream.listTools(cursor);
        for (const tool of result.tools) fresh.set(tool.name, tool);
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      this.tools = fresh;
      this.complete = true;
      this.loadedAt = Date.now();
    })().finally(() => {
      this.loading = undefined;
    });
    return this.loading;
  }
}

export function hintsOf(tool: Tool): ToolHints {
  const a = tool.annotations ?? {};
  const hints: ToolHints = {};
  if (typeof a.readOnlyHint === 'boolean') hints.readOnlyHint = a.readOnlyHint;
  if (typeof a.destructiveHint === 'boolean') hints.destructiveHint = a.destructiveHint;
  return hints;
}
