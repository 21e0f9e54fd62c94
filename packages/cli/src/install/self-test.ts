// Doctor's live check: run the installed hook command once with a synthetic destructive pre-tool event
// (`git push --force origin main`) and once with a harmless one (`ls`), in the host's own protocol,
// and see that the first is denied and the second is not. It runs against a throwaway store and state
// directory (TOLLGATE_DB / TOLLGATE_STATE_DIR in a temp dir, no store id pin), never the real store;
// the config stays the installed one, so its mode and rules are what is tested — as the real hook
// loads it: the config pins are copied in, so a change no person accepted is not what is tested.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stateBase } from '../state.js';
import type { InstalledCommand } from './hook-command.js';
import type { HostSpec } from './hosts.js';
import type { Json } from './json-file.js';

export const DESTRUCTIVE = 'git push --force origin main';
export const HARMLESS = 'ls';
const TIMEOUT_MS = 30_000;

export interface SelfTest {
  ok: boolean;
  problems: string[];
}

export async function selfTest(
  spec: HostSpec,
  installed: InstalledCommand,
  project: string,
  env: NodeJS.ProcessEnv,
): Promise<SelfTest> {
  const scratch = mkdtempSync(join(tmpdir(), 'tollgate-doctor-'));
  try {
    const runEnv: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(env))
      if (!k.startsWith('TOLLGATE_') && k !== 'CLAUDE_PROJECT_DIR') runEnv[k] = v;
    Object.assign(runEnv, installed.env, {
      TOLLGATE_DB: join(scratch, 'doctor.db'),
      TOLLGATE_STATE_DIR: join(scratch, 'state'),
    });
    delete runEnv.TOLLGATE_STORE_ID;
    const pins = join(installed.env.TOLLGATE_STATE_DIR ?? stateBase(env), 'config-pins');
    if (existsSync(pins)) cpSync(pins, join(scratch, 'state', 'config-pins'), { recursive: true });
    // One after the other: both runs share the throwaway store.
    const ask = async (command: string) => {
      const [program, ...args] = installed.argv;
      const child = await run(program as string, args, {
        cwd: project,
        env: runEnv,
        input: JSON.stringify(spec.preEvent(command, scratch)),
      });
      const answer = lastJson(child.stdout);
      const code = child.status;
      return {
        denied: child.error === undefined && spec.denies(answer, code),
        what: child.error
          ? `could not run: ${child.error.message}`
          : `exit ${code}${answer ? `, ${summary(answer)}` : child.stderr ? `, stderr: ${child.stderr.trim().slice(0, 200)}` : ', no answer'}`,
      };
    };
    const problems: string[] = [];
    const bad = await ask(DESTRUCTIVE);
    if (!bad.denied)
      problems.push(
        `the installed hook did not deny a synthetic \`${DESTRUCTIVE}\` in ${spec.label}'s protocol (${bad.what})`,
      );
    const good = await ask(HARMLESS);
    if (good.denied)
      problems.push(`the installed hook denies even a harmless \`${HARMLESS}\` (${good.what})`);
    return { ok: problems.length === 0, problems };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface Ran {
  status: number;
  stdout: string;
  stderr: string;
  error?: Error;
}

/** Runs a process with `input` on stdin, collecting its output, killed after TIMEOUT_MS. */
function run(
  program: string,
  args: string[],
  o: { cwd: string; env: NodeJS.ProcessEnv; input: string },
): Promise<Ran> {
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const child = spawn(program, args, { cwd: o.cwd, env: o.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    let failed: Error | undefined;
    child.on('error', (error) => {
      failed = error;
    });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({
        status: code ?? -1,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        ...(failed ? { error: failed } : signal ? { error: new Error(`killed by ${signal}`) } : {}),
      });
    });
    child.stdin.on('error', () => {}); // it may exit before reading everything
    child.stdin.end(o.input);
  });
}

function lastJson(stdout: string): Json | undefined {
  const line = stdout.trim().split('\n').pop() ?? '';
  try {
    const doc = JSON.parse(line) as unknown;
    return doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The answer's decision and reason in a few words, for the report. */
function summary(answer: Json): string {
  const specific = (answer.hookSpecificOutput ?? {}) as Json;
  const decision =
    specific.permissionDecision ?? answer.decision ?? answer.permission ?? answer.permissionDecision;
  const reason =
    specific.permissionDecisionReason ??
    answer.reason ??
    answer.agent_message ??
    answer.permissionDecisionReason;
  const text = typeof reason === 'string' ? `: ${reason.replace(/\s+/g, ' ').slice(0, 160)}` : '';
  return `decision ${decision === undefined ? 'none' : JSON.stringify(decision)}${text}`;
}
