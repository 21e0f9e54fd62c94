import { describe, expect, it } from 'vitest';
import { optionModel, parseOptions } from './option-model.js';
import { readOptions } from './read-options.js';

const canonical = (program: string, line: string) => readOptions(program, line.split(' '))?.canonical;

describe('optionModel / parseOptions', () => {
  const model = optionModel('f|force r|R|recursive m|message= x|exec! verbose? D:delete+force', {
    negatable: true,
  });
  const parse = (line: string) => parseOptions(model, line === '' ? [] : line.split(' '));

  it.each<[string, string[]]>([
    ['--force', ['--force']],
    ['--fo', ['--force']],
    ['-rf', ['--recursive', '--force']],
    ['-R --rec', ['--recursive']],
    ['-D', ['--delete', '--force']],
    ['--force --no-force', ['--no-force']],
    ['--no-force -f', ['--force']],
    ['--no-fo', ['--no-force']],
    ['--verbose=2', ['--verbose', '--verbose=2']],
    ['-D --no-force --no-delete', ['--delete', '--force', '--no-force', '--no-delete']],
  ])('%s → %j', (line, expected) => {
    expect(parse(line).canonical.sort()).toEqual([...expected].sort());
  });

  it('takes values attached, after =, or as the next word, and keeps them out of positionals', () => {
    expect(parse('-mhello a').canonical).toContain('--message=hello');
    expect(parse('-m hello a').positionals).toEqual(['a']);
    expect(parse('--mess=x a').canonical).toContain('--message=x');
    expect(parse('--mess x a').positionals).toEqual(['a']);
    expect(parse('-fm x a').canonical).toEqual(['--force', '--message', '--message=x']);
  });

  it('stops at --, and keeps unknown options as written', () => {
    const r = parse('--zzz -q a -- -f');
    expect(r.canonical).toEqual(['--zzz', '-q']);
    expect(r.positionals).toEqual(['a', '-f']);
  });

  it('records every candidate of an ambiguous abbreviation', () => {
    const m = optionModel('force force-with-lease? delete');
    expect(parseOptions(m, ['--forc']).canonical).toEqual(['--force', '--force-with-lease']);
  });

  it('reports the values of options that are commands', () => {
    expect(parseOptions(model, ['-x', 'rm -rf ~', 'a']).commands).toEqual([
      { option: '--exec', value: 'rm -rf ~', index: 1 },
    ]);
    expect(parse('--ex=make').commands).toEqual([{ option: '--exec', value: 'make', index: 0 }]);
  });

  it('does not negate where the program has no --no- forms', () => {
    const gnu = optionModel('f|force no-preserve-root preserve-root');
    expect(parseOptions(gnu, ['--no-pres', '-f']).canonical).toEqual(['--no-preserve-root', '--force']);
    expect(parseOptions(gnu, ['--force', '--no-force']).canonical).toEqual(['--force', '--no-force']);
  });
});

describe('program models', () => {
  it.each<[string, string, string[]]>([
    ['rm', '--rec --fo dir', ['--recursive', '--force']],
    ['rm', '-Rf dir', ['--recursive', '--force']],
    ['rm', '-i x', ['-i']],
    ['cp', '-a --remove-d src dst', ['--archive', '--remove-destination']],
    ['chmod', '--recur 777 /', ['--recursive']],
    ['sed', '-n 1,5p f', ['--quiet']],
    ['tar', 'czf out.tgz dir', ['--create', '--gzip', '--file', '--file=out.tgz']],
    ['rsync', '-a --del a b', ['--archive', '--delete-during']],
    ['rsync', '-n --no-dry-run a b', ['--no-dry-run']],
    ['git', 'push --pru origin', ['--prune']],
    ['git', 'push -f --no-force origin', ['--no-force']],
    ['git', 'push --dry-run --force', ['--dry-run', '--force']],
    ['git', 'branch -D topic', ['--delete', '--force']],
    ['git', 'branch --del --forc topic', ['--delete', '--force']],
    ['git', 'switch --discard topic', ['--force']],
    ['git', 'reset --ha', ['--hard']],
    ['git', 'clean -fdx', ['--force', '-d', '-x']],
    ['git', '-C repo -c a=b clean -n', ['--dry-run']],
  ])('%s %s', (program, line, expected) => {
    expect(canonical(program, line)?.sort()).toEqual([...expected].sort());
  });

  it('reads git positionals after the subcommand model', () => {
    expect(readOptions('git', 'commit --mess reset --hard'.split(' '))?.positionals).toEqual(['commit']);
    expect(readOptions('git', '-C d push -u origin HEAD'.split(' '))?.positionals).toEqual([
      'push',
      'origin',
      'HEAD',
    ]);
    expect(readOptions('git', ['log', '-5'])).toBeUndefined();
  });

  it('reads commands given to tar, rsync, zip and git', () => {
    const tar = readOptions('tar', ['-cf', 'x.tar', '--use-compress=zstd -19', 'dir']);
    expect(tar?.commands.map((c) => c.value)).toEqual(['zstd -19']);
    expect(readOptions('rsync', ['-e', 'ssh -p 2', 'a', 'b'])?.commands[0]?.value).toBe('ssh -p 2');
    expect(readOptions('zip', ['-T', '-TT', 'sh x', 'a.zip', 'f'])?.commands[0]?.value).toBe('sh x');
    expect(readOptions('git', ['fetch', '--upload-pa=evil', 'o'])?.commands[0]?.value).toBe('evil');
    expect(readOptions('git', ['rebase', '-xmake', 'main'])?.commands[0]?.value).toBe('make');
  });
});
