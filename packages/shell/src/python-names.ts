// The names python binds before any code runs, and the names an import binds. A bare name the code
// neither imports nor finds among the first is either unbound (NameError where it is evaluated: it
// does nothing) or bound by the code itself (def, class, a parameter, an unpacking) to a value the
// rest of the code makes; payload.ts judges that rest on its own, so such a name adds no action.

/**
 * Builtins of Python 3 (3.14's), of Python 2 (where `python` still is one: execfile, file, reload, …)
 * and the ones `site` adds (help runs a pager, exit/quit). Any of them not in the read-only vocabulary
 * keeps the code unknown-dynamic.
 */
const BUILTINS = new Set(
  (
    'ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError ' +
    'BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ' +
    'ConnectionRefusedError ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning ' +
    'EnvironmentError Exception ExceptionGroup False FileExistsError FileNotFoundError FloatingPointError ' +
    'FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError ' +
    'InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ' +
    'ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError ' +
    'OverflowError PendingDeprecationWarning PermissionError ProcessLookupError PythonFinalizationError ' +
    'RecursionError ReferenceError ResourceWarning RuntimeError RuntimeWarning StopAsyncIteration ' +
    'StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True TypeError ' +
    'UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError ' +
    'UnicodeWarning UserWarning ValueError Warning WindowsError ZeroDivisionError _IncompleteInputError ' +
    'abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile ' +
    'complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format ' +
    'frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len license ' +
    'list locals map max memoryview min next object oct open ord pow print property quit range repr ' +
    'reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip ' +
    // Python 2
    'apply basestring buffer cmp coerce execfile file intern long raw_input reduce reload unichr unicode xrange'
  ).split(' '),
);

/** Keywords and soft keywords: syntax, never a name bound to anything. */
const KEYWORDS = new Set(
  (
    'False None True and as assert async await break class continue def del elif else except finally ' +
    'for from global if import in is lambda nonlocal not or pass raise return try while with yield ' +
    '_ case match type print exec'
  ).split(' '),
);

/**
 * A predicate: whether a bare name in this code is the code's own (unbound, or bound by the code to
 * what its vetted rest computes). Null when an `import *` may bind any name at all.
 */
export function pythonOwnNames(code: string): ((name: string) => boolean) | null {
  const joined = code.replace(/\\\r?\n/g, ' ');
  if (/\bimport\s*\(?\s*\*/.test(joined)) return null;
  const imported = importedNames(joined);
  return (name) =>
    !BUILTINS.has(name) && !KEYWORDS.has(name) && !/^__\w+__$/.test(name) && !imported.has(name);
}

/** `import a.b, c as d` binds a and d; `from m import (x, y as z)` binds x and z. */
function importedNames(code: string): Set<string> {
  const names = new Set<string>();
  const add = (list: string) => {
    for (const part of list.replace(/[()]/g, ' ').replace(/#.*$/gm, '').split(',')) {
      const words = part.trim().split(/\s+/);
      const bound = words[1] === 'as' ? words[2] : words[0]?.split('.')[0];
      if (bound) names.add(bound);
    }
  };
  for (const m of code.matchAll(/\bfrom\s+\S+\s+import\s*(\([^)]*\)|[^\n;]*)/g)) add(m[1] as string);
  for (const m of code.matchAll(/(?:^|[\n;:])\s*import\s+([^\n;]*)/g)) add(m[1] as string);
  return names;
}
