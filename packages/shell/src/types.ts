// The public shapes of @tollgate/shell: what a shell command string resolves to. Every shape is a
// plain JSON-serialisable object, because policy rules match segments with JSON Schema predicates.
import type { ResolveContext } from './files.js';
import type { SqlFacts } from './sql.js';

/** One redirection of a simple command. */
export interface ShellRedirect {
  /** The operator as written: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<<`, `<<-`, `<<<`, `<>`, `>&`, `<&`. */
  op: string;
  /** The target word (quotes removed); for heredocs the delimiter. */
  target: string;
  /** True when the redirection truncates (or creates) the target file: `>`, `>|`, `&>`, `>& file`. */
  truncates: boolean;
  /** The file descriptor written before the operator (`2>`), when one was. */
  fd?: number;
}

/** One simple command, found anywhere in the command line, after unwrapping prefixes. */
export interface ShellSegment {
  /** Normalised program: basename, lower-cased, `.exe` dropped, look-alikes folded (`/usr/bin/GIT` → `git`). */
  program: string;
  /** The program word as written, quotes removed. */
  argv0: string;
  /** The words after the program, quotes and escapes removed; unresolved expansions keep their source text. */
  args: string[];
  /** `args`, lower-cased (JSON Schema patterns are case-sensitive). */
  args_lc: string[];
  /** Option-like args before `--`: `-rf` gives `-rf`, `-r`, `-f`; `--force=x` gives `--force=x`, `--force`. */
  flags: string[];
  /**
   * For programs with an option model (git subcommands, rm, cp, mv, ln, chmod, chown, sed, tar, rsync, …):
   * the options in effect as the program's own parser reads them, by canonical long name (`--rec` →
   * `--recursive`, `-D` → `--delete`, `--force`), a valued option also as `--name=value`; a later
   * `--no-X` removes `--X` and adds `--no-X`. Absent for programs without a model: match `flags` then.
   */
  canonical?: string[];
  /** Non-option args: values of known value-taking options removed; everything after `--`. */
  positionals: string[];
  /** The first positionals (at most four), lower-cased: the command path of a CLI (`aws s3 rb` → `s3`, `rb`). */
  path: string[];
  /**
   * The words of `path` that say what a CLI does, lower-cased: without the word right after an option
   * given once the command has begun (likely that option's value) and ending at a read verb
   * (`gcloud compute instances describe delete-me` → compute, instances, describe).
   */
  operation: string[];
  /** The last positional (the destination of `cp`, `scp`, `rsync`, …); empty when there is none. */
  last_positional: string;
  /** The last word after the program (`az group delete -h` → `-h`); empty when there is none. */
  last_arg: string;
  /** The first positional after the program's global options (`git -C dir push` → `push`), when there is one. */
  subcommand?: string;
  /**
   * Other readings of the command words when the first ones directly follow options no table knows
   * (`npm --tag next publish`, `apt-get -o X -y remove pkg`): each takes one more of them as an
   * option's value, so its subcommand is the next word. Gating rules match any reading.
   */
  readings?: Array<Pick<ShellSegment, 'positionals' | 'path' | 'subcommand'>>;
  /**
   * For `git push` without a destination of its own (`git push`, `git push origin HEAD`): the
   * branch it updates, read from the repository where nothing before could have moved HEAD.
   */
  pushes_branch?: string;
  /** The source text of the simple command this segment came from. */
  text: string;
  /** Wrappers the segment was reached through, outermost first: `sudo`, `bash -c`, `xargs`, `find -exec`, `ssh`, `$()`, ... */
  via: string[];
  /** Leading `NAME=value` assignments (including those given to `env`). */
  assignments: string[];
  /** True when some arg (or the program) holds a variable, substitution or placeholder that is not resolved statically. */
  unresolved: boolean;
  /**
   * True when some unresolved word could take any shape: an option, a `+ref`, several words. Absent
   * when every unresolved word keeps its shape (a static lead that is not an option's letters, quoted
   * expansions only: `"backup-$(date +%s)"`, `--format="$F"`).
   */
  unresolved_open?: boolean;
  /** Redirections of the simple command. */
  redirects: ShellRedirect[];
  /** What the command reads on stdin when that is static: a heredoc or here-string body, or piped `echo`/`printf` output. */
  stdin?: string;
  /**
   * Where stdin comes from: `heredoc`, `herestring`, `pipe` (static text), `pipe-dynamic` (another
   * command's output), `file` (`< FILE`, the command's own or its enclosing construct's).
   */
  stdin_from?: 'heredoc' | 'herestring' | 'pipe' | 'pipe-dynamic' | 'file';
  /** For database clients and interpreters: the code they are given (`-c`, `-e`, `--eval`, a heredoc, piped text). */
  payload?: string;
  /** `payload` lower-cased with quoted string literals emptied, so rules match code and not data. */
  payload_lc?: string;
  /**
   * For SQL clients (psql, mysql, sqlite3, duckdb, clickhouse-client, cockroach sql, …): what the
   * statements they run do — from options, positional SQL, stdin, and files read at decision time —
   * analysed by a SQL lexer (sql.ts). `unknown` when some SQL could not be known (an unreadable file,
   * program output piped in, a variable where SQL or an option may stand).
   */
  sql?: SqlFacts;
  /** For git: configuration given on the command line (`-c k=v`, `GIT_CONFIG_*`), lower-cased `key=value`. */
  config?: string[];
  /**
   * For `git config`: what it writes, lower-cased: `key=value` for a key set or added (`--add`,
   * `--replace-all`, `set`), `key` for a key unset, `section.*` for a section renamed or removed, `*` for `--edit`.
   */
  config_writes?: string[];
  /**
   * For git, when a context gave the files: configuration read from the repository's and the user's
   * config files that changes what a gated command does (`remote.*.push`, `remote.*.mirror`,
   * `clean.requireforce`), lower-cased `key=value`.
   */
  repo_config?: string[];
  /**
   * Files this simple command writes, truncates, creates, moves or deletes (redirections, tee, cp/mv/ln
   * destinations, sed -i, truncate, dd of=, find -fprint, rm, ...): absolute and normalised when a
   * context gave a cwd, symlinks of existing parents resolved.
   */
  writes?: string[];
  /** Every file in `writes` is absent now (a file view said so): the command only creates files. */
  creates_only?: boolean;
  /** Those of `writes` whose files the command moves away (mv's sources, `tar --remove-files`, `zip -m`). */
  moves?: string[];
  /**
   * The written paths may be directories the command fills with files it does not name (`cp -r`,
   * `rsync`, `tar -x -C`, `unzip -d`, `patch`, `mv`): each stands for everything below it too.
   */
  writes_trees?: boolean;
  /**
   * rm -r (rimraf) of build output only: every directory it removes is in one named as build tools
   * name their output, ignored by the repository, holding nothing git has; its other operands are
   * files, which -r removes as rm without it does (build-outputs.ts).
   */
  build_outputs?: boolean;
  /**
   * Where a move puts what it moves when that loses it: `output`, build output whose removal passes
   * (from outside it); `nothing`, no file (`/dev/null`, an archive on stdout, a pipe).
   */
  moves_into?: 'output' | 'nothing';
  /**
   * Regular files there now that the segment deletes (rm, unlink) or whose contents it replaces whole
   * (a truncating redirection, a copy's, move's or install's destination, dd's `of=`, tee's file)
   * and git cannot give back: not in the index or HEAD of the repository they lie in (or in none),
   * not build output. Core keeps those the session did not write itself (Write.unversioned).
   */
  loses_unversioned?: string[];
  /**
   * Files a git command brings into the work tree from commits (a switch, merge, rebase, cherry-pick,
   * stash applied: git-worktree.ts), absolute: core judges those in protected zones as written.
   */
  worktree_changes?: string[];
  /**
   * A path it writes (resolved, links followed) is no scratch: inside the work tree, or outside the
   * temp directories — whatever temp directory's name the command spells it by (scratch.ts).
   */
  writes_beyond_scratch?: boolean;
  /**
   * A `git stash` that puts the work tree's changes away, per work tree (`top`): changed tracked
   * files go back to HEAD's, and with `untracked` (-u, -a) untracked files are removed. Core judges
   * those in protected zones as written.
   */
  stashes?: Array<{ top: string; untracked: boolean }>;
  /** True when some write target could not be resolved (a variable, an unresolvable glob, an unknown cwd). */
  writes_unresolved?: boolean;
  /**
   * The writes may land after the command returns, at any later time: the segment runs in a
   * background job (`cmd &`, `( … ) &`, coproc, a process substitution) or under something that
   * starts it apart from the command (nohup, setsid, at/batch, systemd-run, tmux, screen).
   */
  writes_async?: boolean;
  /** The program file that will actually run (PATH lookup, globs and symlinks resolved), when a context could tell. */
  resolved_program?: string;
  /**
   * For network clients (curl, wget, httpie/xh, gh/glab/hub, Slack CLIs, mail senders, scp/rsync/sftp,
   * nc/ncat/socat/telnet, openssl s_client, bash's /dev/tcp): what leaves the machine (net.ts). Absent
   * when the segment sends nothing anywhere (a read-only gh form, a copy to a local path).
   */
  egress?: ShellEgress;
}

/** Data a segment sends off the machine, as its client's own options say. */
export interface ShellEgress {
  /** `http` (curl, wget, httpie, xh), `publish` (gh/glab/hub posting, Slack), `mail`, `copy` (scp, rsync, sftp), `socket`. */
  kind: 'http' | 'publish' | 'mail' | 'copy' | 'socket';
  /** The HTTP method, upper-cased, where there is one (`-X`, `--method`, httpie's method word, implied by a body). */
  method?: string;
  /**
   * True when something of ours is sent: a body or upload (`-d`, `--json`, `-F`, `-T`, `--post-file`,
   * httpie data items or piped stdin), a file read into a query or header, command output in the URL,
   * a message, a post, a copy to the host, input on a socket. `-G`/`--get` with inline data is a query,
   * `-I`/`--head` and `--spider` are reads, `--offline` sends nothing.
   */
  data: boolean;
  /** The hosts connected to, as written (port stripped): URL hosts, scp/rsync destinations, socket peers. */
  hosts: string[];
  /**
   * True unless every host is exactly loopback (`localhost`, 127.0.0.0/8, `::1`) with no proxy,
   * resolver override or config file (`-x`, `--connect-to`, `--resolve`, `-K`, `*_proxy=` assigned);
   * a host held in a variable, or no host at all, is remote. Mail and forge posts are always remote.
   */
  remote: boolean;
}

/** Something that cannot be resolved statically. */
export interface DynamicConstruct {
  /**
   * `eval`, `source`, `substitution_in_command_position`, `pipe_to_shell`, `interpreter_code`,
   * `interpreter_stdin`, `unresolved_script`, `unresolved_code`, `shell_alias`, `parse_error`, `limit`;
   * resolution: `unresolved_glob` (a glob not expanded where it could be the program or an option),
   * `resolution_incomplete` (a bound of the file view was hit), `reassigned_variable` (a variable
   * resolved from the context is assigned after a use, as a loop may run it first); builtins that
   * install code for later: `alias_definition`, `hash_path`, `enable_builtin`, `completion_command`,
   * `bind_command`, `mapfile_callback`, `prompt_substitution` (PS0/PS1/PS2/PS4 holding `$(` or a
   * backquote), `prompt_command`, `startup_variable` (BASH_ENV, ENV).
   */
  kind: string;
  /** The source text concerned (bounded). */
  text: string;
}

export interface ShellFacts {
  /** Every simple command found anywhere in the command. */
  segments: ShellSegment[];
  /** What cannot be resolved statically; empty when the command is fully static. */
  dynamic: DynamicConstruct[];
  /** A parse problem: unbalanced quote, too long, too deep, deadline hit, NUL byte. */
  error?: string;
  /**
   * Files the command would run as scripts or program files (`bash FILE`, `source FILE`, `./FILE`,
   * `python FILE`, `sh < FILE`, package.json for `npm run`, the makefiles of `make`), absolute; only
   * with a context. Core refuses one the session wrote since it last read it.
   */
  scripts?: string[];
  /**
   * Files whose contents let the command pass where it would otherwise be gated (the ignore files
   * that show a removed directory is build output; a dependency's bin or a console-script wrapper
   * run unjudged as installed), absolute; only with a context. Core refuses the command if the
   * session ever wrote one: what the agent wrote does not vouch for itself, read back or not.
   */
  relies_on?: string[];
  /**
   * Where the command runs the project's code without the gate reading it — a test runner's tests,
   * conftest and the modules they import — per language: the repository's top (or the directory it
   * runs in), absolute; only with a context. Core judges the code files there this session wrote
   * (their literal shell calls as commands, anything else that acts as unknown-dynamic).
   */
  loads_code?: { language: 'python' | 'node' | 'ruby' | 'go' | 'rust'; dir: string }[];
  /**
   * What the command removes as build output (each removed directory as a tree, `DIR/`, and each
   * removed file), absolute: when all of it was made in the session, core does not hold the
   * session's own ignore files and writes there against the removal.
   */
  removes?: string[];
  /**
   * Names the command defines that a later command may rely on: a git remote it adds or points
   * elsewhere (`git-remote:TOP:NAME`, git-remotes.ts). Core records them as the session's writes
   * when the call goes ahead, so a later push to that remote is refused (relies_on).
   */
  defines?: string[];
}

export interface ParseOptions {
  /** Maximum nesting of subshells, substitutions and `sh -c` strings (default 24). */
  maxDepth?: number;
  /** Wall-clock budget in milliseconds (default 30). */
  deadlineMs?: number;
  /** Where the command will run: enables resolution against the file system (globs, cd, writes, scripts). */
  context?: ResolveContext;
}
