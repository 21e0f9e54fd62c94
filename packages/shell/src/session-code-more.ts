// Go, Rust and Ruby code the session wrote that `go test`, `cargo test`/`build` or `rspec`/`rake` load
// (session-code.ts judges python and JS): what it can do, by the names that do it. Go and Rust
// literals and comments are not set aside — a capability's name in a string or a comment counts
// too (fail closed: such code is rare in tests); Ruby's are, its interpolations judged as code.
import { scanLiterals } from './code-literals.js';

/** Go: packages that start processes, reach the kernel or the C world, or load code. */
const GO_IMPORTS = /"(?:os\/exec|syscall|unsafe|plugin|C|golang\.org\/x\/sys\/[\w/]+)"/;
/** Go: os's removals, moves, links and process starts; reflection by a computed name; linker tricks. */
const GO_ACTS =
  /\bos\s*\.\s*(?:Remove|RemoveAll|Rename|Truncate|Symlink|Link|Chmod|Chown|Lchown|StartProcess)\b|\bMethodByName\b|\/\/\s*go:(?:linkname|generate)\b/;

export function judgeGo(text: string): string | undefined {
  const imported = GO_IMPORTS.exec(text);
  if (imported) return `imports ${imported[0]}`;
  // `import xos "os"` reaches os's members by a name this does not follow.
  const alias = /(?:^|\n)\s*(?:import\s+)?(\w+)\s+"os"/.exec(text);
  if (alias && alias[1] !== 'import') return `imports os as ${alias[1]}`;
  const acts = GO_ACTS.exec(text);
  return acts ? `calls ${acts[0].replace(/\s/g, '')}` : undefined;
}

/** Rust: processes, file removal and moves, raw memory and foreign code, crates that run shells. */
const RUST_ACTS =
  /\b(?:process\s*::\s*(?:Command|exit|abort)|Command\s*::\s*new|remove_file|remove_dir|remove_dir_all|set_permissions|symlink|symlink_file|symlink_dir|hard_link|libc|xshell|duct|subprocess|std\s*::\s*os\s*::\s*unix\s*::\s*process)\b|\bfs\s*::\s*rename\b|\bunsafe\b|\bextern\s+"|#\s*\[\s*(?:link|no_mangle|proc_macro\w*)\b/;

export function judgeRust(text: string): string | undefined {
  const acts = RUST_ACTS.exec(text);
  return acts ? `uses ${acts[0].replace(/\s/g, '')}` : undefined;
}

/**
 * Ruby: shells and processes, file removal through File/FileUtils/Dir/Pathname, code built at run
 * time and methods called by a name given as a value. `load` and `method` count only as Kernel's
 * (`YAML.load` is a parser).
 */
const RUBY_ACTS =
  /`|%x|\b(?:system|exec|spawn|fork|syscall|popen|popen3|capture2e?|capture3|Open3|PTY|Process|Fiddle|eval|instance_eval|class_eval|module_eval|instance_exec|class_exec|binding|send|public_send|__send__|const_get|define_method|ObjectSpace|Kernel)\b|(?<![.\w])(?:load|autoload|method)\b|\b(?:File|FileUtils|Dir|Pathname)\s*(?:\.|::)\s*(?:delete|unlink|rm\w*|rmdir|remove\w*|rename|mv|move|ln\w*|symlink|chmod\w*|chown\w*)\b|\.\s*rmtree\b|\binclude\s+FileUtils\b|\brequire(?:_relative)?\b(?!\s*\(?\s*"")/;

export function judgeRuby(text: string): string | undefined {
  // "#{…}" runs code inside a string: each body, found by its braces wherever it stands, is code.
  for (const body of interpolationBodies(text)) {
    const acts = RUBY_ACTS.exec(body);
    if (acts) return `uses ${acts[0].trim() || 'a shell'} in an interpolation`;
  }
  const scanned = scanLiterals(text, 'ruby');
  if (scanned.unsure) return 'cannot be read plainly (a string or comment left open)';
  if (/[^\x00-\x7f]/.test(scanned.code)) return 'names written outside ASCII';
  const acts = RUBY_ACTS.exec(scanned.code);
  return acts ? `uses ${acts[0].trim() || 'a shell'}` : undefined;
}

/** The text inside each `#{ … }`, braces balanced (an unclosed one runs to the end). */
function interpolationBodies(text: string): string[] {
  const bodies: string[] = [];
  for (let at = text.indexOf('#{'); at >= 0; at = text.indexOf('#{', at + 2)) {
    let depth = 1;
    let end = at + 2;
    for (; end < text.length && depth > 0; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}') depth--;
    }
    bodies.push(text.slice(at + 2, end - 1));
  }
  return bodies;
}
