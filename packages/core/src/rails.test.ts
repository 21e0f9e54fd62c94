import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Classification } from './classify.js';
import { relevanceFor } from './evidence-relevance.js';
import { buildRails, type Channel } from './rails.js';
import { reason } from './reasons.js';
import type { Requirements } from './requirements.js';
import { renderSource } from './requirements.js';
import { sanitiseText } from './sanitise.js';
import { FORBIDDEN } from './testing/forbidden.js';

const channels: Channel[] = ['cli', 'claude-code', 'mcp', 'http', 'library'];

function railsFor(command: string, channel: Channel, extra: string) {
  const classification: Classification = {
    class: 'irreversible',
    rules: ['git.push.force'],
    gating: [],
    segment: command,
  };
  const requirements: Requirements = {
    maxAgeS: 600,
    requireAttested: false,
    requiresAttempts: true,
    reads: [renderSource('git ls-remote origin {{args.command}}', { args: { command } }) ?? 'git status'],
    probes: [],
    relevance: relevanceFor(classification, { tool: 'shell', args: { command } }),
  };
  return buildRails({
    call: { tool: 'shell', args: { command } },
    classification,
    requirements,
    problems: [
      reason(
        'evidence_not_observed',
        `a read of ${JSON.stringify(extra)} was never recorded`,
        '/prediction/evidence/0',
      ),
    ],
    channel,
    describe: () => `force-push rewrites ${extra}`,
  });
}

describe('rails', () => {
  it('teach the literal next steps for the call', () => {
    const rails = railsFor('git push --force origin main', 'cli', 'remote history');
    expect(rails.text).toContain('tollgate observe -- <read>');
    expect(rails.text).toContain("tollgate predict --for 'git push --force origin main'");
    expect(rails.text).toContain('[evidence_not_observed]');
    expect(rails.reads).toEqual(["git ls-remote origin 'git push --force origin main'"]);
    expect(rails.example_prediction.evidence[0]).toMatchObject({ source: rails.reads[0] });
  });

  it('never carry a control character from the call, whatever the input (property)', () => {
    const nasty = fc.string({
      unit: fc.constantFrom(
        '\u001b[31m',
        '\n',
        '\r',
        '\u0000',
        '\u202e',
        'a',
        ' ',
        '"',
        "'",
        '\u0085',
        '\ud800',
        '\u001b]0;x\u0007',
        'rm',
        '\u00ad',
        '\u061c',
        '\u180e',
        '\ufff9',
        '\ufffb',
        '\u{e0001}',
        '\u{e0041}',
        '\u{e007f}',
        '\u200d',
      ),
    });
    fc.assert(
      fc.property(nasty, nasty, fc.constantFrom(...channels), (command, extra, channel) => {
        const clean = railsFor('git push', channel, 'x').text.split('\n').length;
        const rails = railsFor(command, channel, extra);
        expect(rails.text).not.toMatch(FORBIDDEN);
        expect(rails.text).not.toContain('\u001b');
        // Input cannot add or remove lines: only the rails' own separators are line feeds.
        expect(rails.text.split('\n').length).toBe(clean);
        for (const r of rails.reads) expect(JSON.stringify(r)).not.toMatch(FORBIDDEN);
        for (const p of rails.problems) {
          expect(p.message).not.toMatch(FORBIDDEN);
          expect(p.path ?? '').not.toMatch(FORBIDDEN);
        }
        const made = reason('schema_invalid', `key ${command}`, `/call/${extra}`);
        expect(made.message).not.toMatch(FORBIDDEN);
        expect(made.path).not.toMatch(FORBIDDEN);
      }),
      { numRuns: 300 },
    );
  });
});

describe('sanitiseText', () => {
  it('removes ANSI escapes and caps length', () => {
    expect(sanitiseText('\u001b[31mred\u001b[0m')).toBe('red');
    expect(sanitiseText('x'.repeat(500), 10)).toBe(`${'x'.repeat(9)}…`);
  });

  it('strips invisible format characters and the tag block', () => {
    const hidden = 'a\u00adb\u061cc\u180ed\ufff9e\ufffaf\ufffbg\u{e0001}\u{e0068}\u{e0069}\u{e007f}h\u2066i';
    expect(sanitiseText(hidden)).toBe('abcdefghi');
  });
});

// Through the Claude Code hook a tool-call subject can never be re-read (issue 14): the rails
// suggest a claim the adapter can check, and say which would stay unverifiable.
describe('rails for a tool call through an adapter that probes only shell reads', () => {
  const toolRead = { tool: 'read_text_file', args: { path: '/srv/notes/a.txt' } };
  const classification: Classification = { class: 'irreversible', rules: ['mcp.write'], gating: [] };
  const rails = (channel: Channel, reads: Requirements['reads']) =>
    buildRails({
      call: { tool: 'write_file', args: { path: '/srv/notes/a.txt' } },
      classification,
      requirements: {
        maxAgeS: 600,
        requireAttested: false,
        requiresAttempts: false,
        reads,
        probes: [],
        relevance: relevanceFor(classification, { tool: 'write_file', args: { path: '/srv/notes/a.txt' } }),
      },
      problems: [],
      channel,
      describe: () => undefined,
    });

  it('suggests a shell read as the claim subject and names the tool read that would stay unverifiable', () => {
    const viaHook = rails('claude-code', [toolRead]);
    expect(typeof viaHook.example_prediction.claims[0]?.subject).toBe('string');
    expect(viaHook.text).toContain('stays "unverifiable"');
    expect(viaHook.text).toContain('read_text_file');
    const withShell = rails('claude-code', [toolRead, 'cat /srv/notes/a.txt']);
    expect(withShell.example_prediction.claims[0]?.subject).toBe('cat /srv/notes/a.txt');
  });

  it('keeps the tool subject where the adapter can re-read tools (the MCP proxy)', () => {
    expect(rails('mcp', [toolRead]).example_prediction.claims[0]?.subject).toEqual(toolRead);
    expect(rails('mcp', [toolRead]).text).not.toContain('stays "unverifiable"');
  });
});
