// The command registry: one line per subcommand. Modules load only when their command runs, so a
// hook call never loads serve's or mcp's dependencies.
import type { CommandEntry } from '../command.js';

export const commands: CommandEntry[] = [
  { name: 'classify', summary: 'classify a command (no store)', load: () => import('./classify.js') },
  {
    name: 'check',
    summary: 'the verdict for a command, without running it',
    load: () => import('./check.js'),
  },
  {
    name: 'run',
    summary: 'check, run, record the outcome and probe the post-state',
    load: () => import('./run.js'),
  },
  {
    name: 'observe',
    summary: 'run a read and record its output in the ledger',
    load: () => import('./observe.js'),
  },
  { name: 'predict', summary: 'file a prediction for a command', load: () => import('./predict.js') },
  { name: 'decline', summary: 'file a decline for a command', load: () => import('./decline.js') },
  { name: 'hook', summary: 'speak a host hook protocol (claude-code)', load: () => import('./hook.js') },
  {
    name: 'audit',
    summary: 'list, show, report, verify and export the audit trail',
    load: () => import('./audit.js'),
  },
  {
    name: 'rules',
    summary: 'list the rules in force, or test a command against them',
    load: () => import('./rules.js'),
  },
  {
    name: 'init',
    summary: 'write a starter config and install the hooks of each agent host present',
    load: () => import('./init.js'),
  },
  {
    name: 'doctor',
    summary: 'whether each agent host has the gate installed, current and enforcing',
    load: () => import('./doctor.js'),
  },
  {
    name: 'uninstall',
    summary: "a person: take Tollgate's hooks out of the agent host configs",
    load: () => import('./uninstall.js'),
  },
  {
    name: 'shim',
    summary: 'a person: gate programs called by name in any shell (install, uninstall, doctor)',
    load: () => import('./shim.js'),
  },
  {
    name: 'git-hook',
    summary: 'what the git hooks of init git-hooks run (pre-push, pre-commit, pre-rebase)',
    load: () => import('./git-hook.js'),
  },
  {
    name: 'override',
    summary: 'operator: let a scoped set of calls through, audited',
    load: () => import('./override.js'),
  },
  {
    name: 'review',
    summary: 'a person: list, show, approve or deny the calls waiting for review',
    load: () => import('./review.js'),
  },
  {
    name: 'notify',
    summary: 'deliver the queued review notices to the configured webhooks',
    load: () => import('./notify.js'),
  },
  {
    name: 'config',
    summary: "the gate's config in force; a person: accept a change to it",
    load: () => import('./config.js'),
  },
  {
    name: 'store',
    summary: "the gate's store and its pin; operator: reset a vanished or replaced store",
    load: () => import('./store.js'),
  },
  { name: 'serve', summary: 'the HTTP service and dashboard', load: () => import('./serve.js') },
  {
    name: 'mcp',
    summary: 'a predict-or-decline proxy in front of an MCP server',
    load: () => import('./mcp.js'),
  },
];
