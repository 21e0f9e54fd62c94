// Public surface of @tollgate/core. Any new export here becomes public API.

export { ChainWalker, chainRow, GENESIS_HASH, rowHash, verifyChain } from './audit-chain.js';
export { type AuditView, auditView, mergeOutcomes } from './audit-view.js';
export { callDigest, parseCall, sourceKey, sourceText } from './call.js';
export { canonicalJson, digestOf, sha256Hex } from './canonical.js';
export { evaluateClaim, type ObservedOutput } from './claims.js';
export {
  ANNOTATION_READ_RULE_ID,
  ANNOTATION_RULE_ID,
  type CallClass,
  type Classification,
  classify,
  isGated,
  normaliseCall,
  SHELL_TOOL,
  type ToolHints,
} from './classify.js';
export {
  DIRECTIVE_TOOL,
  type DirectiveInput,
  directiveInForce,
  directiveSource,
  HOST_DIRECTIVE_KINDS,
  recordDirective,
} from './directives.js';
export { type FaultCode, isFault, TollgateFault } from './faults.js';
export {
  type CheckOptions,
  createGate,
  type Gate,
  type GateOptions,
  type GateWhere,
  type Mode,
  type OverrideInput,
} from './gate.js';
export { dispatchChecked, type Guarded, type GuardOptions, type GuardResult } from './guard.js';
export { DEFAULT_MAX_INPUT_BYTES, type DecodeOptions, decodeJson } from './input.js';
export { DEFAULT_SESSION_LIMITS, type LimitName, type OnLimit, type SessionLimits } from './limits.js';
export { cutUtf8, type ObservationInput } from './observations.js';
export type { OutcomeResult } from './outcome.js';
export {
  type CompileOptions,
  compilePolicy,
  OUTPUT_AJV_OPTIONS,
  type PolicySource,
  PREDICATE_AJV_OPTIONS,
  type PredicateSite,
  type PredicateSource,
  parsePolicyText,
} from './policy/compile.js';
export { fastForm, fastPredicateSource } from './policy/fast-predicate.js';
export { loadPolicy, readPolicySource } from './policy/files.js';
export { type PredicateSiteOf, predicateSites } from './policy/sites.js';
export type { CompiledRule, Policy, Predicate } from './policy/types.js';
export type {
  AuditDraft,
  AuditQuery,
  ChainCheck,
  ChainHead,
  Clock,
  Consumption,
  DeclineRecord,
  DispatchRecord,
  ExportQuery,
  LedgerAdmission,
  LedgerCaps,
  LedgerRequest,
  LedgerUsage,
  LedgerWindow,
  LedgerWindows,
  NotificationAttempt,
  NotificationRecord,
  OpenTicket,
  OverrideRecord,
  PredictionRecord,
  ReviewAnswer,
  ReviewQuery,
  ReviewRecord,
  ReviewStatus,
  Store,
  TicketRecord,
  WrittenFile,
} from './ports.js';
export { systemClock } from './ports.js';
export { buildRails, type Channel } from './rails.js';
export { REASONS, type ReasonCode, reason, reasonMeaning } from './reasons.js';
export type { TicketRecordResult } from './record-ticket.js';
export {
  type Reclassify,
  type ReplayChange,
  type ReplayOptions,
  type ReplayResult,
  type ReplayRow,
  replayAudit,
} from './replay.js';
export { buildReport, type ReportOptions } from './report.js';
export {
  type CalibrationReport,
  type Flag,
  type FlaggedRow,
  type MismatchEntry,
  NO_AGENT,
  PERFUNCTORY_MS,
  REPORT_DIMENSIONS,
  type ReportDimension,
  type ReportFigures,
  type ReportGroup,
  type ReportQuery,
  type RuleHistory,
  type RuleRecord,
  type Spread,
  type StoreReport,
} from './report-types.js';
export { type Requirements, renderSource, requirementsFor } from './requirements.js';
export {
  APPROVAL_TTL_S,
  approveHint,
  CEILING_REVIEW_RULE,
  REVIEW_TIMEOUT_S,
  type ReviewState,
  reviewState,
} from './review.js';
export { answerReview, type ReviewAnswerInput, type ReviewAnswerResult } from './review-answer.js';
export {
  backoffMs,
  type DrainOptions,
  type DrainResult,
  drainNotifications,
  drainUntilIdle,
  type NotifyTarget,
  noticeBody,
  type PostResult,
  type PostWebhook,
  type ReviewNotice,
  reviewNotice,
  slackBody,
  targetName,
} from './review-notify.js';
export {
  type NotificationView,
  type ReviewStatusView,
  type ReviewView,
  reviewStatusView,
  reviewView,
} from './review-view.js';
export {
  escapedJson,
  OUTGOING_CAP,
  quoted,
  sanitiseOutgoing,
  sanitiseText,
  shellQuoted,
} from './sanitise.js';
export { sessionBrief } from './session-brief.js';
export type { Settlement } from './settle.js';
export {
  type EnvelopeArg,
  envelopeArg,
  envelopeArgumentSchema,
  gatedToolNote,
  splitToolArgs,
  TOLLGATE_ARG,
  tollgateArgumentSchema,
  withTollgateProperty,
} from './tool-argument.js';
export { classifyTool, type ToolClassification } from './tool-class.js';
export { declineText, refusalText, replyFacts } from './tool-replies.js';
export type { Write } from './writes.js';
export { PROTECTED_ZONES, type ProjectPaths, type Zone, zoneOf } from './zones.js';
