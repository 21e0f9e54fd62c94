// Per-upstream config becomes policy: listed tools get rules, files resolve from the config root,
// and the builtin catalogue classifies the known MCP servers' tools as documented.
import { classify, compilePolicy, loadPolicy, readPolicySource } from '@tollgate/core';
import { describe, expect, it } from 'vitest';
import { ruleSlug, upstreamPolicySources } from './upstream-policy.js';

describe('upstreamPolicySources', () => {
  it('turns the read_only and irreversible lists into rules (hints can only make them stricter)', () => {
    const { files, sources } = upstreamPolicySources(
      'Secure FS',
      { policies: ['extra.yaml', 'builtin:mcp'], irreversible: ['frob_*'], read_only: ['peek'] },
      '/etc/tollgate',
    );
    expect(files).toEqual(['/etc/tollgate/extra.yaml', 'builtin:mcp']);
    const policy = compilePolicy(sources);
    expect(classify(policy, { tool: 'frob_all', args: {} }, { readOnlyHint: true })).toMatchObject({
      class: 'irreversible',
      rules: ['config.mcp.secure-fs.irreversible'],
    });
    expect(classify(policy, { tool: 'peek', args: {} }, { readOnlyHint: false }).class).toBe('read-only');
    // Hints only make the gate stricter: a tool that says it is destructive stays gated.
    expect(classify(policy, { tool: 'peek', args: {} }, { destructiveHint: true }).rules).toEqual([
      'mcp.annotation.destructive',
    ]);
  });

  it('adds nothing for an upstream the config does not name', () => {
    expect(upstreamPolicySources('x', undefined, '/')).toEqual({ files: [], sources: [] });
    expect(upstreamPolicySources('x', { read_only: [] }, '/')).toEqual({ files: [], sources: [] });
  });

  it('makes rule ids out of any name', () => {
    expect(ruleSlug('@scope/Server Name!')).toBe('scope-server-name-');
    expect(ruleSlug('---')).toBe('upstream');
  });

  it('a listed read-only tool that a shipped rule gates stays gated', () => {
    const { sources } = upstreamPolicySources('fs', { read_only: ['write_file'] }, '/');
    const policy = compilePolicy([readPolicySource('builtin:mcp'), ...sources]);
    expect(classify(policy, { tool: 'write_file', args: { path: '/a', content: 'x' } }).class).toBe(
      'irreversible',
    );
  });
});

describe('the shipped MCP catalogue (builtin:mcp)', () => {
  const policy = loadPolicy(['builtin:mcp']);
  const cls = (tool: string, args: Record<string, unknown> = {}, hints = {}) =>
    classify(policy, { tool, args }, hints).class;

  it('gates filesystem writes, edits and moves, and reads the reads', () => {
    expect(cls('write_file', { path: '/a', content: 'x' })).toBe('irreversible');
    expect(cls('edit_file', { path: '/a', edits: [] })).toBe('irreversible');
    expect(cls('edit_file', { path: '/a', edits: [], dryRun: true })).toBe('read-only');
    expect(cls('move_file', { source: '/a', destination: '/b' })).toBe('irreversible');
    for (const read of ['read_text_file', 'list_directory', 'get_file_info', 'directory_tree'])
      expect(cls(read)).toBe('read-only');
    expect(cls('create_directory', { path: '/d' }, { destructiveHint: false })).toBe('unmatched');
  });

  it('gates memory and GitHub-style deletes, merges and pushes to protected branches', () => {
    expect(cls('delete_entities', { entityNames: ['a'] })).toBe('irreversible');
    expect(cls('delete_branch', { branch: 'feat' })).toBe('irreversible');
    expect(cls('merge_pull_request', { owner: 'o', repo: 'r', pull_number: 1 })).toBe('irreversible');
    expect(cls('push_files', { branch: 'main' })).toBe('irreversible');
    expect(cls('push_files', { branch: 'release/1.4' })).toBe('irreversible');
    expect(cls('push_files', { branch: 'feature/x' })).toBe('unmatched');
    expect(cls('push_files', { branch: 'feature/x' }, { destructiveHint: false })).toBe('unmatched');
    // A push the rule does not gate is still gated when the tool says it is destructive.
    expect(cls('push_files', { branch: 'feature/x' }, { destructiveHint: true })).toBe('irreversible');
    for (const read of ['read_graph', 'search_nodes', 'open_nodes', 'get_file_contents'])
      expect(cls(read)).toBe('read-only');
  });

  it('gates destructive SQL and reads SELECTs', () => {
    expect(cls('query', { sql: 'DROP TABLE users' })).toBe('irreversible');
    expect(cls('execute', { query: 'delete from users -- where id = 1' })).toBe('irreversible');
    expect(cls('execute', { query: 'DROP/**/TABLE users' })).toBe('irreversible');
    expect(cls('execute_sql', { sql: "DO $$ BEGIN EXECUTE 'DR' || 'OP TABLE t'; END $$" })).toBe(
      'unknown-dynamic',
    );
    // A filtering WHERE is judged as in the shell catalogue (db.sql.destructive): not destructive.
    expect(cls('execute', { query: 'delete from users where id = 1' })).not.toBe('irreversible');
    expect(cls('execute_sql', { sql: '  Truncate audit;' })).toBe('irreversible');
    expect(cls('query', { sql: 'SELECT count(*) FROM users' })).toBe('read-only');
    expect(cls('query', { sql: 'SELECT * FROM dropped_rows' })).toBe('read-only');
    expect(cls('query', { sql: "SELECT 'DROP TABLE users' AS note" })).toBe('read-only');
  });
});
