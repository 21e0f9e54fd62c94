// What another tollgate process is pointed at: never a database URL (it would land on a command line
// the agent sees, credentials and all); config discovery for hooks from the project, not the input.
import { describe, expect, it } from 'vitest';
import { hookConfigDir, storeEnv } from './runtime.js';
import { defaultStorePath } from './state.js';

describe('storeEnv', () => {
  it('passes a SQLite path, the config file and a chosen state directory on', () => {
    const env = { TOLLGATE_STATE_DIR: '/state/tollgate' };
    expect(storeEnv({ config: {}, path: '/p/tollgate.config.yaml', root: '/p' }, env)).toEqual({
      TOLLGATE_DB: defaultStorePath('/p', env),
      TOLLGATE_CONFIG: '/p/tollgate.config.yaml',
      TOLLGATE_STATE_DIR: '/state/tollgate',
    });
    expect(defaultStorePath('/p', env)).toMatch(/^\/state\/tollgate\/p-[0-9a-f]{12}\/tollgate\.db$/);
  });

  it('names the root config even where there is none, so a config the agent writes below is not found first', () => {
    expect(storeEnv({ config: { store: 'db/x.db' }, root: '/p' }, { HOME: '/home/u' })).toEqual({
      TOLLGATE_DB: '/p/db/x.db',
      TOLLGATE_CONFIG: '/p/tollgate.config.yaml',
    });
  });

  it('never passes a postgres URL, from the config or from TOLLGATE_DB', () => {
    const url = 'postgres://gate:s3cret@db.internal/tollgate';
    const fromConfig = storeEnv({ config: { store: url }, path: '/p/tollgate.config.yaml', root: '/p' }, {});
    expect(fromConfig).toEqual({ TOLLGATE_CONFIG: '/p/tollgate.config.yaml' });
    expect(JSON.stringify(storeEnv({ config: {}, root: '/p' }, { TOLLGATE_DB: url }))).not.toContain(
      's3cret',
    );
  });
});

describe('hookConfigDir', () => {
  it('is CLAUDE_PROJECT_DIR when set, else the process cwd', () => {
    expect(hookConfigDir('/p/sub', { CLAUDE_PROJECT_DIR: '/p' })).toBe('/p');
    expect(hookConfigDir('/p/sub', {})).toBe('/p/sub');
  });
});
