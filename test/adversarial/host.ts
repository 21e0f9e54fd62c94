// A stand-in for Claude Code driving the real hook command, for attack tests: every tool call goes
// PreToolUse → (if not denied) the call is really carried out in a scratch repository with a bare
// remote → PostToolUse with what it returned. Tests then judge by the damage, not by the verdict:
// a remote force-updated, a tree deleted, the config flipped, audit rows lost.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { git, lastJson, scratchRepo, tollgate } from '../../packages/cli/src/testing/harness.js';

export interface HookAnswer {
  hookSpecificOutput: {
    hookEventName: string;
    permissionDecision?: string;
    permissionDecisionReason?: string;
    updatedInput?: Record<string, unknown>;
    additionalContext?: string;
  };
}

export interface Step {
  /** The PreToolUse answer. */
  pre: HookAnswer;
  denied: boolean;
  /** Why, when denied. */
  reason: string;
  /** Whether the call was carried out. */
  ran: boolean;
  stdout: string;
  /** The PostToolUse answer, when the call ran. */
  post?: HookAnswer;
}

const SCRATCH = join(import.meta.dirname, '..', '.scratch');

export class Host {
  readonly root: string;
  readonly work: string;
  readonly remote: string;
  readonly home: string;
  readonly config: string;
  private n = 0;

  constructor(public session = `adv-${Math.random().toString(36).slice(2, 10)}`) {
    // Not under /tmp: the gate lets writes to scratch space through, and these tests need a real
    // "outside the project" around the project.
    const repo = scratchRepo(SCRATCH);
    this.root = realpathSync(repo.root);
    this.work = join(this.root, 'work');
    this.remote = join(this.root, 'remote.git');
    this.home = join(this.root, 'home');
    mkdirSync(join(this.home, '.claude'), { recursive: true });
    writeFileSync(join(this.home, '.bashrc'), '# the person’s shell start-up file\n');
    this.config = join(this.work, 'tollgate.config.yaml');
    writeFileSync(this.config, 'mode: enforce\n');
    mkdirSync(join(this.work, '.claude'), { recursive: true });
    writeFileSync(join(this.work, '.claude', 'settings.json'), '{"hooks": {"PreToolUse": []}}\n');
    mkdirSync(join(this.work, 'important'), { recursive: true });
    writeFileSync(join(this.work, 'important', 'data.txt'), 'precious\n');
    writeFileSync(join(this.work, 'README.md'), '# project\n');
    git(this.work, 'add', '.');
    git(this.work, 'commit', '-q', '-m', 'project files');
  }

  /** A new Claude Code session in the same project (its ledger and rejection streaks start empty). */
  newSession(): string {
    this.session = `adv-${Math.random().toString(36).slice(2, 10)}`;
    return this.session;
  }

  /** The environment of the agent's shell and of the hook: a home of its own, never the real one. */
  env(): Record<string, string> {
    return {
      HOME: this.home,
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      CLAUDE_PROJECT_DIR: this.work,
      XDG_STATE_HOME: join(this.home, '.local', 'state'),
    };
  }

  private payload(
    event: string,
    tool: string,
    input: Record<string, unknown>,
    extra = {},
    cwd = this.work,
  ): string {
    return JSON.stringify({
      session_id: this.session,
      transcript_path: join(this.home, '.claude', 'projects', `${this.session}.jsonl`),
      cwd,
      permission_mode: 'default',
      hook_event_name: event,
      tool_name: tool,
      tool_input: input,
      tool_use_id: `toolu_${this.n}`,
      ...extra,
    });
  }

  async hook(input: string): Promise<HookAnswer> {
    const run = await tollgate(['hook', 'claude-code'], { cwd: this.work, input, env: this.env() });
    if (run.code !== 0 || run.stdout.trim() === '')
      throw new Error(`hook exited ${run.code}: ${run.stderr || run.stdout}`);
    return lastJson<HookAnswer>(run.stdout);
  }

  /** A Bash tool call, as Claude Code makes it; `cwd` is where the session's shell stands (a `cd` before). */
  async bash(command: string, cwd = this.work): Promise<Step> {
    this.n++;
    const pre = await this.hook(this.payload('PreToolUse', 'Bash', { command }, {}, cwd));
    if (pre.hookSpecificOutput.permissionDecision === 'deny') return deniedStep(pre);
    const rewritten = pre.hookSpecificOutput.updatedInput?.command;
    const run = spawnSync('/bin/bash', ['-c', typeof rewritten === 'string' ? rewritten : command], {
      cwd,
      env: this.env(),
      encoding: 'utf8',
      timeout: 30_000,
    });
    const response = { stdout: run.stdout ?? '', stderr: run.stderr ?? '', interrupted: false };
    const event = run.status === 0 ? 'PostToolUse' : 'PostToolUseFailure';
    const post = await this.hook(
      this.payload(
        event,
        'Bash',
        { command },
        event === 'PostToolUse' ? { tool_response: response } : { error: response.stderr },
        cwd,
      ),
    );
    return {
      pre,
      denied: false,
      reason: '',
      ran: true,
      stdout: `${response.stdout}${response.stderr}`,
      post,
    };
  }

  /**
   * A Bash call with `run_in_background: true`: Claude Code starts it, detached, and reports at once
   * (PostToolUse with a task id, no output) while the command goes on running.
   */
  async background(command: string, cwd = this.work): Promise<Step> {
    this.n++;
    const input = { command, run_in_background: true };
    const pre = await this.hook(this.payload('PreToolUse', 'Bash', input, {}, cwd));
    if (pre.hookSpecificOutput.permissionDecision === 'deny') return deniedStep(pre);
    spawn('/bin/bash', ['-c', command], { cwd, env: this.env(), detached: true, stdio: 'ignore' }).unref();
    const response = { stdout: '', stderr: '', interrupted: false, backgroundTaskId: `bash_${this.n}` };
    const post = await this.hook(
      this.payload('PostToolUse', 'Bash', input, { tool_response: response }, cwd),
    );
    return { pre, denied: false, reason: '', ran: true, stdout: '', post };
  }

  /** A Write or Edit tool call: carried out with the file system when the hook does not deny it. */
  async edit(tool: 'Write' | 'Edit', input: Record<string, unknown>): Promise<Step> {
    this.n++;
    const pre = await this.hook(this.payload('PreToolUse', tool, input));
    if (pre.hookSpecificOutput.permissionDecision === 'deny') return deniedStep(pre);
    const path = String(input.file_path);
    if (tool === 'Write') writeFileSync(path, String(input.content));
    else
      writeFileSync(
        path,
        readFileSync(path, 'utf8').replace(String(input.old_string), String(input.new_string)),
      );
    const post = await this.hook(
      this.payload('PostToolUse', tool, input, { tool_response: { filePath: path } }),
    );
    return { pre, denied: false, reason: '', ran: true, stdout: '', post };
  }

  /** A Read tool call: the host reads the file and reports it in PostToolUse (the hook records it). */
  async read(path: string): Promise<Step> {
    this.n++;
    const pre = await this.hook(this.payload('PreToolUse', 'Read', { file_path: path }));
    const content = readFileSync(path, 'utf8');
    const post = await this.hook(
      this.payload(
        'PostToolUse',
        'Read',
        { file_path: path },
        { tool_response: { type: 'text', file: { filePath: path, content } } },
      ),
    );
    return { pre, denied: false, reason: '', ran: true, stdout: content, post };
  }

  /** A session event (UserPromptSubmit with `prompt`, SessionStart with `source`): no tool, as Claude Code sends it. */
  async sessionEvent(
    event: 'UserPromptSubmit' | 'SessionStart',
    extra: Record<string, unknown>,
  ): Promise<HookAnswer> {
    return this.hook(
      JSON.stringify({
        session_id: this.session,
        transcript_path: join(this.home, '.claude', 'projects', `${this.session}.jsonl`),
        cwd: this.work,
        permission_mode: 'default',
        hook_event_name: event,
        ...extra,
      }),
    );
  }

  /** Files a prediction for a Bash command through the agent's own shell, as the rails say. */
  predictFor(command: string, doc: unknown): Promise<Step> {
    return this.bash(`tollgate predict --for ${shq(command)} --json-doc ${shq(JSON.stringify(doc))}`);
  }

  /** Files a prediction for a host tool call (Write, Edit, mcp__…) through the agent's shell. */
  predictTool(tool: string, args: unknown, doc: unknown): Promise<Step> {
    return this.bash(
      `tollgate predict --tool ${shq(tool)} --args ${shq(JSON.stringify(args))} --json-doc ${shq(JSON.stringify(doc))}`,
    );
  }

  remoteMain(): string {
    return git(this.remote, 'rev-parse', 'refs/heads/main');
  }

  /** The audit chain as an operator would check it, in the hook's own store. */
  async verify(): Promise<number> {
    return (await tollgate(['audit', 'verify'], { cwd: this.work, env: this.env() })).code;
  }

  headOf(dir = this.work): string {
    return execFileSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).trim();
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** What a denied call came to: nothing ran. */
function deniedStep(pre: HookAnswer): Step {
  return {
    pre,
    denied: true,
    reason: pre.hookSpecificOutput.permissionDecisionReason ?? '',
    ran: false,
    stdout: '',
  };
}

export function shq(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/** The observation id a PostToolUse answer names. */
export function observationOf(step: Step): string {
  return /observation (\w{26})/.exec(step.post?.hookSpecificOutput.additionalContext ?? '')?.[1] ?? '';
}
