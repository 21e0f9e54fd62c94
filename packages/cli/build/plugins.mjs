// esbuild plugins for the CLI bundle: swap in the precompiled modules, and load heavy dependencies
// only when a code path really calls them (a hook call never loads ajv, yaml or pg).
import { dirname, join } from 'node:path';

const LAZY_AJV = `
import { byId } from 'tollgate-precompiled:contract-validators';
__REQUIRE_LAZY__
// Contract validators come precompiled; anything else (a user rule predicate with no cached code)
// builds a real ajv on first use, with the options and schemas it was given.
export class Ajv2020 {
  #opts; #schemas = []; #formats = []; #real;
  constructor(opts) { this.#opts = opts; }
  addFormat(name, format) { this.#formats.push([name, format]); this.#real?.addFormat(name, format); return this; }
  addSchema(schema, key) { this.#schemas.push([schema, key]); this.#real?.addSchema(schema, key); return this; }
  getSchema(id) { return byId[id] ?? this.#ajv().getSchema(id); }
  compile(schema) { return this.#ajv().compile(schema); }
  get errors() { return this.#real?.errors; }
  errorsText(errors) { return this.#ajv().errorsText(errors); }
  #ajv() {
    if (!this.#real) {
      const { Ajv2020: Real } = requireLazy('ajv/dist/2020.js');
      this.#real = new Real(this.#opts);
      for (const [n, f] of this.#formats) this.#real.addFormat(n, f);
      for (const [s, k] of this.#schemas) this.#real.addSchema(s, k);
    }
    return this.#real;
  }
}
`;

const LAZY_YAML = `
__REQUIRE_LAZY__
export function parse(...args) { return requireLazy('yaml').parse(...args); }
export function stringify(...args) { return requireLazy('yaml').stringify(...args); }
export function parseDocument(...args) { return requireLazy('yaml').parseDocument(...args); }
`;

const LAZY_PG = `
__REQUIRE_LAZY__
let pg;
const load = () => (pg ??= requireLazy('pg'));
export default new Proxy({}, { get: (_, key) => load()[key], has: (_, key) => key in load() });
`;

// ES module chunks make a require from import.meta.url; the CommonJS hook bundle has require itself.
const REQUIRE_LAZY = {
  esm: "const requireLazy = (await import('node:module')).createRequire(import.meta.url);",
  cjs: 'const requireLazy = require;',
};

export function tollgatePlugins({ generated, cliSrc, format = 'esm' }) {
  const lazy = (code) => code.replace('__REQUIRE_LAZY__', REQUIRE_LAZY[format]);
  return {
    name: 'tollgate-precompiled',
    setup(build) {
      build.onResolve({ filter: /^ajv\/dist\/2020(\.js)?$/ }, () => ({
        path: 'lazy-ajv',
        namespace: 'tollgate',
      }));
      build.onResolve({ filter: /^yaml$/ }, () => ({ path: 'lazy-yaml', namespace: 'tollgate' }));
      build.onResolve({ filter: /^pg$/ }, () => ({ path: 'lazy-pg', namespace: 'tollgate' }));
      build.onResolve({ filter: /^tollgate-precompiled:contract-validators$/ }, () => ({
        path: join(generated, 'contract-validators.mjs'),
      }));
      build.onResolve({ filter: /\/precompiled\.js$/ }, (args) => {
        if (dirname(args.importer) !== cliSrc) return undefined;
        return { path: join(generated, 'precompiled.mjs') };
      });
      build.onLoad({ filter: /.*/, namespace: 'tollgate' }, (args) => ({
        contents: lazy({ 'lazy-ajv': LAZY_AJV, 'lazy-yaml': LAZY_YAML, 'lazy-pg': LAZY_PG }[args.path]),
        loader: 'js',
        resolveDir: cliSrc,
      }));
    },
  };
}
