// Public surface of @tollgate/cli as a library: the runtime every process adapter starts from and
// the command registry. Any new export here becomes public API.
export type { Command, CommandEntry, CommandIO } from './command.js';
export { commands } from './commands/index.js';
export { main } from './main.js';
export {
  CONFIG_FILE,
  findConfig,
  type LoadedConfig,
  openPolicy,
  openRuntime,
  type Runtime,
  type RuntimeOptions,
  sessionFrom,
  storeEnv,
  storeTarget,
} from './runtime.js';
