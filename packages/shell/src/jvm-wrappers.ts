// The build wrappers a JVM project commits (Gradle's `gradlew`, Maven's `mvnw`) end in two statements
// the shell model cannot follow: an `eval "set -- …"` whose words the wrapper has escaped one by one,
// and `exec "$JAVACMD" …`, the java the wrapper found. Beside the wrapper's properties file, those two
// generated statements are forgiven; every other statement of the file is judged as any script's, and
// a command that sets what they read (JAVA_HOME, JAVACMD, PATH, the *_OPTS) keeps them unknown.
import { posix } from 'node:path';
import type { Extractor } from './extract.js';

const PROPERTIES: Record<string, string> = {
  gradlew: 'gradle/wrapper/gradle-wrapper.properties',
  mvnw: '.mvn/wrapper/maven-wrapper.properties',
};

/** Gradle's: the JVM options split by xargs, every character but a safe few escaped by sed. */
const GRADLE_EVAL =
  /^eval "set -- \$\(\s*printf '%s\\n' "\$DEFAULT_JVM_OPTS \$JAVA_OPTS \$GRADLE_OPTS" \|\s*xargs -n1 \|\s*sed ' s~\[\^-\[:alnum:\]\+,\.\/:=@_\]~\\\\&~g; ' \|\s*tr '\\n' ' '\s*\)" '"\$@"'$/;
/** The java the wrapper found, given the wrapper's own options and the command's words. */
const JAVA_EXEC = /^exec "\$JAVACMD"( \\\n\s*| )[^;&|`]*"\$@"$/;
/** A command that sets what those statements read. */
const STEERING =
  /(^|[^\w])(JAVA_HOME|JAVACMD|PATH|DEFAULT_JVM_OPTS|JAVA_OPTS|GRADLE_OPTS|MAVEN_OPTS|MAVEN_CONFIG|WRAPPER_LAUNCHER|CLASSPATH)\+?=/;

/**
 * Drop the generated statements' flags that judging the wrapper at `path` added (those after
 * `from`), when it is a wrapper beside its properties and the command steers none of what they read.
 */
export function forgiveWrapperStatements(ex: Extractor, path: string, from: number, command: string): void {
  const properties = PROPERTIES[posix.basename(path)];
  const files = ex.res.files;
  if (properties === undefined || !files || STEERING.test(command)) return;
  if (files.realpath(posix.join(posix.dirname(path), properties)) === undefined) return;
  for (let k = ex.dynamic.length - 1; k >= from; k--) {
    const d = ex.dynamic[k];
    if (!d) continue;
    const generated =
      (d.kind === 'eval' && GRADLE_EVAL.test(d.text)) ||
      (d.kind === 'substitution_in_command_position' && JAVA_EXEC.test(d.text));
    if (generated) ex.dynamic.splice(k, 1);
  }
}
