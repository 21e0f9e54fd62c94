// A long-running gate (tollgate serve, tollgate mcp) opened its store file once; if that file is then
// deleted or swapped for another, SQLite keeps writing to the old, unlinked inode, and the gate would go
// on deciding with a history nobody can see. This wrapper re-checks the path (at most every 250 ms, on
// use) and, once it no longer names the opened file, fails every store call with store_unavailable
// (→ gate_unavailable) instead.
import { statSync } from 'node:fs';
import { type Store, TollgateFault } from '@tollgate/core';

const EVERY_MS = 250;

export function watchStoreFile(store: Store, path: string, now: () => number = Date.now): Store {
  const opened = identity(path);
  if (opened === undefined) return store;
  let checked = now();
  let broken: string | undefined;
  const check = () => {
    if (broken !== undefined || now() - checked < EVERY_MS) return;
    checked = now();
    const current = identity(path);
    if (current !== opened)
      broken = `the gate's store ${path} was ${current === undefined ? 'deleted' : 'replaced'} while the gate was running; gated calls are refused until a person runs tollgate store reset --reason "<why>" and restarts the gate`;
  };
  // One wrapper per method, made on first use: the gate calls the store several times per decision.
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop);
      if (typeof value !== 'function') return value;
      let fn = wrapped.get(prop);
      if (fn === undefined) {
        fn =
          prop === 'close'
            ? value.bind(target)
            : (...args: unknown[]) => {
                check();
                if (broken !== undefined)
                  return Promise.reject(new TollgateFault('store_unavailable', broken));
                return value.apply(target, args);
              };
        wrapped.set(prop, fn);
      }
      return fn;
    },
  });
}

/** device:inode of the file, undefined when it is gone. */
function identity(path: string): string | undefined {
  try {
    const s = statSync(path);
    return `${s.dev}:${s.ino}`;
  } catch {
    return undefined;
  }
}
