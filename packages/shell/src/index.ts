// Public surface of @tollgate/shell: a shell command string → structured facts. Any new export here
// becomes public API.
export { matchesIndexNow } from './build-outputs.js';
export { parseShell } from './facts.js';
export type { FileView, ResolveContext } from './files.js';
export { FOLDABLE, foldPath } from './fold-path.js';
export { findTopLevel } from './git-config.js';
export { ranByHook } from './git-hooks.js';
export { type FileLimits, type NodeFileView, nodeFileView } from './node-files.js';
export { viaPackageRunner } from './package-runners.js';
export { LEAVES_NOTHING } from './programs.js';
export { resolvePath, TOOL_HOMES } from './resolve.js';
export { METADATA_ONLY } from './scripts.js';
export {
  judgeSessionCode,
  type SessionCodeJudgement,
  type SessionCodeLanguage,
  sessionCodeLanguage,
} from './session-code.js';
export { commandSpelling, type SpellingToken } from './spelling.js';
export {
  analyseSql,
  type SqlAnalysis,
  type SqlFacts,
  type SqlOptions,
  type SqlStatementAnalysis,
  sqlFactsOfArgs,
} from './sql.js';
export { type StateRead, stateRead } from './state-read.js';
export type {
  DynamicConstruct,
  ParseOptions,
  ShellEgress,
  ShellFacts,
  ShellRedirect,
  ShellSegment,
} from './types.js';
