// What a call relies on to pass: an ignore file the session wrote, or one that changed after the
// session's first call however it changed, vouches for nothing; and what it loses: the person's
// untracked files it deletes or replaces, less those the session made.
import type { FileView, ShellFacts } from '@tollgate/shell';
import { describe, expect, it } from 'vitest';
import type { Classification } from './classify.js';
import type { Store } from './ports.js';
import { requirementsFor } from './requirements.js';
import {
  createdKeys,
  fileEventKeys,
  SESSION_WRITTEN,
  SESSION_WRITTEN_RELIED,
  sessionFileView,
  withSessionScripts,
  withUnversionedLosses,
  writtenPaths,
} from './session-files.js';
import type { Write } from './writes.js';

const STARTED = 1_000_000;

/** The two questions withSessionScripts asks of a store, answered from a list of written paths. */
function store(written: string[] = []): Store {
  return {
    writtenSinceRead: async () => [],
    writtenBySession: async (_session: string, paths: readonly string[]) =>
      paths.filter((p) => written.includes(p)),
    sessionStartedAt: async () => STARTED,
  } as unknown as Store;
}

const relying = (relies_on: string[]) => ({
  tool: 'shell',
  args: { command: 'rm -rf build' },
  facts: { segments: [], dynamic: [], relies_on } as unknown as ShellFacts,
});

const flagged = async (
  paths: string[],
  times: Record<string, number | undefined>,
  written: string[] = [],
  /** Paths there now; without the list, every path is. */
  there?: string[],
  /** What the command removes as build output (ShellFacts.removes). */
  removes?: string[],
) => {
  const view = {
    exists: (p: string) => there === undefined || there.includes(p),
    changedAt: (p: string) => times[p],
  };
  const call = relying(paths);
  if (removes) (call.facts as { removes?: string[] }).removes = removes;
  const result = await withSessionScripts(store(written), 's', call, view);
  return (result.facts?.dynamic ?? []).filter((d) => d.kind === SESSION_WRITTEN_RELIED).map((d) => d.text);
};

describe('ignore files a removal relied on', () => {
  const ignore = '/p/.gitignore';
  const exclude = '/p/.git/info/exclude';

  it('vouch while unchanged since the session began', async () => {
    expect(await flagged([ignore, exclude, '/p/build/'], { [ignore]: STARTED - 1, [exclude]: 5 })).toEqual(
      [],
    );
  });

  it('vouch for nothing once changed at or after the first call, however it changed', async () => {
    expect(await flagged([ignore, exclude], { [ignore]: STARTED, [exclude]: STARTED + 60_000 })).toEqual([
      `${ignore} (changed after the session began)`,
      `${exclude} (changed after the session began)`,
    ]);
  });

  it('are named once when the session also wrote them', async () => {
    expect(await flagged([ignore], { [ignore]: STARTED + 1 }, [ignore])).toEqual([ignore]);
  });

  it('only ignore files are timed: a directory on the way changes whenever a file is made in it', async () => {
    expect(
      await flagged(['/p/', '/p/build/', '/p/src'], { '/p/': STARTED + 1, '/p/src': STARTED + 1 }),
    ).toEqual([]);
  });

  it('a file view out of its bounds tells no time, and that counts as a change', () => {
    const view = { exhausted: true, changedAt: () => undefined } as unknown as FileView;
    expect(sessionFileView(view)?.changedAt?.(ignore)).toBe(Number.POSITIVE_INFINITY);
    const fresh = { exhausted: false, changedAt: () => undefined } as unknown as FileView;
    expect(sessionFileView(fresh)?.changedAt?.(ignore)).toBeUndefined();
    expect(sessionFileView({} as FileView)?.changedAt).toBeUndefined();
    expect(sessionFileView(undefined)).toBeUndefined();
  });

  it('a file view out of its bounds tells nothing is gone: a script it cannot see still counts', () => {
    const spent = { exhausted: true, realpath: () => undefined } as unknown as FileView;
    expect(sessionFileView(spent)?.exists('/p/s.sh')).toBe(true);
    const fresh = { exhausted: false, realpath: () => undefined } as unknown as FileView;
    expect(sessionFileView(fresh)?.exists('/p/s.sh')).toBe(false);
  });
});

describe('a removal of paths that are not there', () => {
  const ignore = '/p/.gitignore';
  const later = { [ignore]: STARTED + 5 };

  it('is not held against the session: under its own ignore rule, it removes nothing', async () => {
    expect(await flagged([ignore, '/p/dist/'], later, [ignore], [], ['/p/dist/'])).toEqual([]);
  });

  it('is held when anything removed is there, whoever made it', async () => {
    expect(await flagged([ignore, '/p/build/'], later, [ignore], ['/p/build'], ['/p/build/'])).toEqual([
      ignore,
    ]);
    // Two removed trees, one of them there.
    expect(
      await flagged(
        [ignore, '/p/dist/', '/p/build/'],
        later,
        [ignore],
        ['/p/build'],
        ['/p/dist/', '/p/build/'],
      ),
    ).toEqual([ignore]);
  });

  it('never excuses what is relied on besides the removal: a directory on the way, a remote name', async () => {
    expect(await flagged(['/p/dist', '/p/dist/a/'], {}, ['/p/dist'], [], ['/p/dist/a/'])).toEqual([
      '/p/dist',
    ]);
    expect(await flagged(['git-remote:/p:evil'], {}, ['git-remote:/p:evil'], [], [])).toEqual([
      'git-remote:/p:evil',
    ]);
  });
});

describe('a script the session wrote and has not read since', () => {
  it('is named in the reads the refusal asks for, so the agent knows what to read back', () => {
    const classification = {
      class: 'unknown-dynamic',
      rules: ['shell.script.unread-write'],
      gating: [],
      facts: {
        segments: [],
        dynamic: [
          { kind: SESSION_WRITTEN, text: '/p/eslint.config.js' },
          { kind: SESSION_WRITTEN, text: "/p/it's.sh" },
        ],
      },
    } as unknown as Classification;
    const { reads } = requirementsFor(
      classification,
      { tool: 'shell', args: { command: 'npx eslint .' } },
      300,
    );
    expect(reads).toEqual(['cat /p/eslint.config.js', `cat '/p/it'\\''s.sh'`]);
  });
});

describe('withUnversionedLosses', () => {
  const call = (writes: Write[], removes: string[]) => ({
    tool: 'shell',
    args: { command: 'rm a b c' },
    facts: { segments: [{ loses_unversioned: removes }], dynamic: [] } as unknown as ShellFacts,
    writes,
  });

  it("marks the project files it deletes that the session did not make: the person's only copy", async () => {
    const writes: Write[] = [
      { path: '/p/mine.txt', zone: 'project', leavesNothing: true },
      { path: '/p/theirs.txt', zone: 'project', leavesNothing: true },
      { path: '/tmp/t.txt', zone: 'temp', leavesNothing: true },
    ];
    // Written to is not made: only a file the session made where nothing was is its own.
    const marked = await withUnversionedLosses(
      store(['created:/p/mine.txt', '/p/theirs.txt']),
      's',
      call(writes, ['/p/mine.txt', '/p/theirs.txt', '/tmp/t.txt']),
    );
    expect(marked.writes?.filter((w) => w.unversioned).map((w) => w.path)).toEqual(['/p/theirs.txt']);
  });

  it('marks a tree write holding a file it overwrites, unless the session made that file', async () => {
    const writes: Write[] = [
      { path: '/p/docs', zone: 'project', tree: true },
      { path: '/p/docs2', zone: 'project' },
    ];
    const marked = await withUnversionedLosses(store(), 's', call(writes, ['/p/docs/guide.md']));
    expect(marked.writes?.filter((w) => w.unversioned).map((w) => w.path)).toEqual(['/p/docs']);
    // Not a tree: a write of /p/docs2 is no write of a file below /p/docs.
    const sibling = call([{ path: '/p/doc', zone: 'project', tree: true }], ['/p/docs/guide.md']);
    expect(await withUnversionedLosses(store(), 's', sibling)).toBe(sibling);
    const mine = call(writes, ['/p/docs/guide.md']);
    expect(await withUnversionedLosses(store(['created:/p/docs/guide.md']), 's', mine)).toBe(mine);
  });

  it('records as made only what a passed call writes where nothing is yet', () => {
    const classification = {
      writes: [
        { path: '/p/new.txt', zone: 'project' },
        { path: '/p/old.txt', zone: 'project' },
        { path: '/p/dir', zone: 'project', tree: true },
        { path: '/p/gone.txt', zone: 'project', leavesNothing: true },
      ],
    } as unknown as Classification;
    const view = { exists: (path: string) => path === '/p/old.txt' };
    expect(createdKeys(writtenPaths(classification), view)).toEqual([
      'created:/p/new.txt',
      'created:/p/dir',
      'created:/p/dir/',
    ]);
    expect(createdKeys(writtenPaths(classification), undefined)).toEqual([]);
  });

  it('leaves the call as it is where nothing is lost', async () => {
    const same = call([{ path: '/p/mine.txt', zone: 'project' }], ['/p/mine.txt']);
    expect(await withUnversionedLosses(store(['created:/p/mine.txt']), 's', same)).toBe(same);
    const none = call([{ path: '/p/a.txt', zone: 'project' }], []);
    expect(await withUnversionedLosses(store(), 's', none)).toBe(none);
  });
});

describe('a script written under a spelling a case-insensitive file system takes for it', () => {
  /** Keys as Store.recordFileEvents keeps them: a read clears a write of the same key only. */
  function eventStore() {
    const written = new Map<string, number>();
    const read = new Map<string, number>();
    let now = 0;
    const store = {
      record: (kind: 'write' | 'read', keys: readonly string[]) => {
        now++;
        for (const key of keys) (kind === 'write' ? written : read).set(key, now);
      },
      writtenSinceRead: async (_s: string, keys: readonly string[]) =>
        keys.filter((k) => (written.get(k) ?? -1) > (read.get(k) ?? -1)),
      writtenBySession: async (_s: string, keys: readonly string[]) => keys.filter((k) => written.has(k)),
      sessionStartedAt: async () => STARTED,
    };
    return store;
  }
  const running = (scripts: string[]) => ({
    tool: 'shell',
    args: { command: 'make' },
    facts: { segments: [], dynamic: [], scripts } as unknown as ShellFacts,
  });
  const held = async (s: ReturnType<typeof eventStore>, script: string) =>
    ((await withSessionScripts(s as unknown as Store, 's', running([script]))).facts?.dynamic ?? [])
      .filter((d) => d.kind === SESSION_WRITTEN)
      .map((d) => d.text);

  it('is the file make runs there: held until read back', async () => {
    const s = eventStore();
    s.record('write', fileEventKeys(['/p/MAKEFILE']));
    expect(await held(s, '/p/Makefile')).toEqual(['/p/Makefile']);
    // Read back under any spelling of the same file, it runs.
    s.record('read', fileEventKeys(['/p/makefile']));
    expect(await held(s, '/p/Makefile')).toEqual([]);
  });

  it('a read of another spelling does not clear the write of the file itself', async () => {
    const s = eventStore();
    s.record('write', fileEventKeys(['/p/Makefile']));
    s.record('read', fileEventKeys(['/p/MAKEFILE']));
    expect(await held(s, '/p/Makefile')).toEqual(['/p/Makefile']);
  });

  it('are recorded beside the path itself, never as a path of their own', () => {
    expect(fileEventKeys(['/p/Src/App.ts'])).toEqual(['/p/Src/App.ts', 'folded:/p/src/app.ts']);
  });
});
