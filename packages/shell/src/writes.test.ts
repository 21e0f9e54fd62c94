// What each simple command writes, without a context (paths as written) and with one (absolute).
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseShell, type ShellSegment } from './index.js';

const seg = (command: string, program?: string): ShellSegment => {
  const segments = parseShell(command, { context: { cwd: '/w' } }).segments;
  const found = program ? segments.find((s) => s.program === program) : segments[0];
  if (!found) throw new Error(`no segment in ${command}`);
  return found;
};
const writes = (command: string, program?: string) => seg(command, program).writes;
const allWrites = (command: string) =>
  parseShell(command, { context: { cwd: '/w' } }).segments.flatMap((s) => s.writes ?? []);

describe('redirections', () => {
  it.each<[string, string[]]>([
    ['echo x > a', ['/w/a']],
    ['echo x >> a', ['/w/a']],
    ['echo x >| a', ['/w/a']],
    ['cmd &> a', ['/w/a']],
    ['cmd &>> a', ['/w/a']],
    ['cmd 1<> a', ['/w/a']],
    ['cmd >& a', ['/w/a']],
    ['cmd 2>&1 > /dev/null', ['/dev/null']],
    ['cmd 2>&1', []],
    ['cmd < in', []],
    ['cat <<EOF > out\nbody\nEOF', ['/w/out']],
    ['{ echo a; echo b; } >> log', ['/w/log']],
  ])('%j writes %j', (command, expected) => {
    expect(allWrites(command)).toEqual(expected);
  });

  it('marks a target it cannot resolve', () => {
    expect(seg('echo x > "$OUT"').writes_unresolved).toBe(true);
    expect(seg('echo x > $(mktemp)', 'echo').writes_unresolved).toBe(true);
    expect(seg('echo x > out').writes_unresolved).toBe(false);
  });
});

describe('programs', () => {
  it.each<[string, string[]]>([
    ['tee a b', ['/w/a', '/w/b']],
    ['tee -a log', ['/w/log']],
    ['cp a b', ['/w/b', '/w/b/a']],
    ['cp a b dir/', ['/w/dir', '/w/dir/a', '/w/dir/b']],
    ['cp -t /etc a', ['/etc', '/etc/a']],
    ['cp --target-directory=/etc a', ['/etc', '/etc/a']],
    ['cp -T a b', ['/w/b']],
    ['install -m 755 tool /usr/local/bin/tool', ['/usr/local/bin/tool', '/usr/local/bin/tool/tool']],
    ['install -d /opt/x /opt/y', ['/opt/x', '/opt/y']],
    ['mv a /etc/', ['/etc', '/etc/a', '/w/a']],
    ['ln -s /etc/passwd link', ['/w/link', '/w/link/passwd', '/etc/passwd']],
    ['rm -rf a b', ['/w/a', '/w/b']],
    ['rm -- -f', ['/w/-f']],
    ['rmdir d', ['/w/d']],
    ['unlink f', ['/w/f']],
    ['shred -n 3 -u f', ['/w/f']],
    ['truncate -s 0 f', ['/w/f']],
    ['touch -d yesterday f', ['/w/f']],
    ['mkdir -p -m 700 a/b', ['/w/a/b']],
    ['chmod -R 755 d', ['/w/d']],
    ['chmod -x f', ['/w/f']],
    ['chmod --reference=r f', ['/w/f']],
    ['chown -R u:g d', ['/w/d']],
    ['chgrp g f', ['/w/f']],
    ['sed -i s/a/b/ f g', ['/w/f', '/w/g']],
    ['sed -i.bak -e s/a/b/ f', ['/w/f']],
    ['sed -ni p f', ['/w/f']],
    ['sed --in-place=.orig s/a/b/ f', ['/w/f']],
    ['sed s/a/b/ f', []],
    ['perl -pi -e s/a/b/ f', ['/w/f']],
    ['perl -i.bak -pe s/a/b/ f', ['/w/f']],
    ['perl -pe s/a/b/ f', []],
    ['dd if=/dev/zero of=/dev/sda bs=1M', ['/dev/sda']],
    ['find . -name x -delete', ['/w']],
    ['find -L /srv -delete', ['/srv']],
    ['find . -fprint out -fprintf fmt.txt %p', ['/w/out', '/w/fmt.txt']],
    ['find . -name -delete', []],
    ['curl -o out https://x/y', ['/w/out']],
    ['curl -sSLo out https://x/y', ['/w/out']],
    ['curl --output=out https://x/y', ['/w/out']],
    ['curl -O https://x/dir/file.tgz?v=1', ['/w/file.tgz']],
    ['curl -c jar -D headers https://x/', ['/w/jar', '/w/headers']],
    ['curl https://x/', []],
    ['wget -O out https://x/y', ['/w/out']],
    ['wget -qO- https://x/y', []],
    ['wget https://x/a/b.sh', ['/w/b.sh']],
    ['wget -P /opt https://x/', ['/opt/index.html']],
    ['tar -xzf a.tgz -C /srv', ['/srv']],
    ['tar xf a.tar', ['/w']],
    ['tar --extract --file=a.tar --directory=out', ['/w/out']],
    ['tar -czf out.tgz src', ['/w/out.tgz']],
    ['tar cf out.tar src', ['/w/out.tar']],
    ['tar -tf a.tar', []],
    ['rsync -av src/ /backup/', ['/backup']],
    ['rsync -av src/ host:/backup/', []],
    ['rsync -an src/ /backup/', []],
    ['rsync -av host:/src/ ./dst', ['/w/dst']],
    ['scp -P 22 host:file ./local', ['/w/local']],
    ['scp file host:', []],
    ['sqlite3 app.db "DELETE FROM t"', ['/w/app.db']],
    ['sqlite3 -readonly app.db .dump', []],
    ['duckdb :memory:', []],
    ['patch -p1 -i x.diff', ['/w']],
    ['patch -d /etc -p0 < x.diff', ['/etc']],
    ['patch orig.c x.diff', ['/w/orig.c']],
    ['split -l 10 big part-', ['/w/part-*']],
    ['csplit -f chunk in /x/', ['/w/chunk*']],
    ["csplit -f '' -b '.git/config%.0d' in /x/", ['/w/.git/config*']],
    ["csplit -b '%02d.txt' -f part- in 2", ['/w/part-*.txt']],
    ['sort -o out in', ['/w/out']],
    ['convert in.png -resize 50% ../out.png', ['/out.png']],
    ['magick in.png png:-', []],
    // A backup: the destination moved aside under the suffix.
    [
      'cp -T -b -S .json sj .claude/settings.local',
      ['/w/.claude/settings.local', '/w/.claude/settings.local.json'],
    ],
    ['cp -T --suffix=.yaml x tollgate.config', ['/w/tollgate.config', '/w/tollgate.config.yaml']],
    ['mv -T -b new old', ['/w/old', '/w/new', '/w/old~']],
    ['cp -T --backup=numbered a b', ['/w/b', '/w/b~', '/w/b.~*~']],
    ['cp -T --backup=none -S .x a b', ['/w/b']],
    ['cp -b a b', ['/w/b', '/w/b/a', '/w/b~', '/w/b/a~']],
    // util-linux rename: FROM replaced by TO in each name, the file moved there.
    ['rename.ul gc /home/u/.gitconfig gc', ['/home/u/.gitconfig', '/w/gc']],
    ['rename .txt .md a.txt b.txt', ['/w/a.md', '/w/a.txt', '/w/b.md', '/w/b.txt']],
    ['rename -n .txt .md a.txt', []],
    ['sort -uo out in', ['/w/out']],
    ['gzip -9 a b', ['/w/a', '/w/a.gz', '/w/b', '/w/b.gz']],
    ['gzip -d q.sh.gz', ['/w/q.sh.gz', '/w/q.sh']],
    ['gunzip -k x.tgz', ['/w/x.tgz', '/w/x.tar']],
    ['unzstd a.zst', ['/w/a.zst', '/w/a']],
    ['xxd -r p.hex s.sh', ['/w/s.sh']],
    ['xxd p.bin', []],
    ['cmake -E copy evil s.sh', ['/w/s.sh']],
    ['cmake -E rm -f a b', ['/w/a', '/w/b']],
    ['gpg -d -o s.sh p.gpg', ['/w/s.sh']],
    ['iconv -f latin1 -t utf8 -o out.txt in.txt', ['/w/out.txt']],
    ['dos2unix a b', ['/w/a', '/w/b']],
    ['dos2unix -n in out', ['/w/out']],
    ['lz4 -d a.lz4 b', ['/w/b']],
    ['sqlite3 ar.db -Ax', ['/w/ar.db', '/w']],
    ['sqlite3 ar.db .tables', ['/w/ar.db']],
    ['redis-cli --rdb dump.rdb', ['/w/dump.rdb']],
    ['gzip -c a', []],
    ['unzip a.zip -d out', ['/w/out']],
    ['rsync -a --remove-source-files src/ /backup/', ['/backup', '/w/src']],
    ['ruby -pi -e \'gsub(/a/,"b")\' f', ['/w/f']],
    ['yq -i .a=1 c.yaml', ['/w/c.yaml']],
    ['yq .a c.yaml', []],
    ['sponge f', ['/w/f']],
    ['zip -r out.zip src', ['/w/out.zip']],
    ['7z x a.7z -o/srv', ['/srv']],
    ['7z a out.7z src', ['/w/out.7z']],
    ['openssl genrsa -out key.pem 2048', ['/w/key.pem']],
    ['ssh-keygen -t ed25519 -f ~/.ssh/id', ['~/.ssh/id']],
    ['mkfs.ext4 -L data /dev/sdb1', ['/dev/sdb1']],
    ['gcc -O2 -o /usr/local/bin/x x.c', ['/usr/local/bin/x']],
    // npm's own configuration and manifest editors.
    ['npm config set script-shell /bin/x', ['~/.npmrc']],
    ['npm set ignore-scripts false', ['~/.npmrc']],
    ['npm config set --location=project registry x', ['/w/.npmrc']],
    ['npm config set --userconfig ./rc k v', ['/w/rc']],
    ["npm pkg set scripts.test='node t.js'", ['/w/package.json']],
    ['npm config get registry', []],
    ['npm pkg get name', []],
    ['ls -la', []],
    ['cat a b', []],
  ])('%j writes %j', (command, expected) => {
    expect(writes(command)).toEqual(expected);
  });

  it("a tool's persistent settings are a write of its settings files; reading them is not", () => {
    expect(writes('pnpm config set registry https://r.example')).toEqual(['~/.config/pnpm/rc', '~/.npmrc']);
    expect(writes('yarn config set npmRegistryServer x')).toEqual([
      '/w/.yarnrc.yml',
      '~/.yarnrc.yml',
      '~/.yarnrc',
    ]);
    expect(writes('pip3 config set global.index-url x')).toEqual([
      '~/.config/pip/pip.conf',
      '~/.pip/pip.conf',
    ]);
    expect(allWrites('python3 -m pip config --global set global.index-url x')).toEqual(['/etc/pip.conf']);
    expect(writes('poetry config repositories.x https://r.example')).toEqual([
      '~/.config/pypoetry/config.toml',
    ]);
    expect(writes('poetry config --local virtualenvs.in-project true')).toEqual(['/w/poetry.toml']);
    expect(writes('go env -w GOFLAGS=-toolexec=./x')).toEqual(['~/.config/go/env']);
    expect(writes('gem sources --add https://r.example')).toEqual(['~/.gemrc']);
    for (const command of [
      'pnpm config get registry',
      'yarn config get npmRegistryServer',
      'pip config list',
      'poetry config --list',
      'poetry config virtualenvs.in-project',
      'go env GOPATH',
      'gem sources',
      'pnpm install',
    ])
      expect({ command, writes: writes(command) }).toEqual({ command, writes: [] });
  });

  it('python -m venv and virtualenv write the environment directory', () => {
    expect(allWrites('python3 -m venv --prompt x ../env')).toEqual(['/env']);
    expect(allWrites('virtualenv -p python3 ~/.ssh/env')).toEqual(['~/.ssh/env']);
  });

  it('reads the program through prefixes and wrappers', () => {
    expect(writes('sudo -u root tee /etc/hosts', 'tee')).toEqual(['/etc/hosts']);
    expect(writes(`bash -c 'cp a /etc/x'`, 'cp')).toEqual(['/etc/x', '/etc/x/a']);
    expect(writes('xargs rm', 'rm')).toEqual(['{}']);
    expect(seg('xargs rm', 'rm').writes_unresolved).toBe(true);
  });

  it('writes where a wrapper starts its command: env -C, sudo -D, unshare -w, nsenter --wd', () => {
    expect(writes('env -C .. tee x', 'tee')).toEqual(['/x']);
    expect(writes('env -iC /srv cp a b', 'cp')).toEqual(['/srv/b', '/srv/b/a']);
    expect(writes('env --chd=sub tee x', 'tee')).toEqual(['/w/sub/x']);
    expect(writes('sudo -iD /etc tee hosts', 'tee')).toEqual(['/etc/hosts']);
    expect(writes('unshare -w /opt tee x', 'tee')).toEqual(['/opt/x']);
    expect(writes('nsenter -t 1 --wd=/opt tee x', 'tee')).toEqual(['/opt/x']);
    // A letter before -D that takes a value takes the rest of the cluster: -u's user is `Dbuild`.
    expect(writes('sudo -uDbuild tee x', 'tee')).toEqual(['/w/x']);
    expect(writes(`env -C /srv sh -c 'echo y > x'`, 'echo')).toEqual(['/srv/x']);
    // Only the wrapped command moves: the shell, and what follows it, stay where they were.
    expect(allWrites('env -C /srv true; echo y > x')).toEqual(['/w/x']);
    // A root or a directory that cannot be told leaves every relative write unresolved.
    expect(seg('chroot /jail tee x', 'tee').writes_unresolved).toBe(true);
    expect(seg('env -C "$D" tee x', 'tee').writes_unresolved).toBe(true);
    // nsenter's --wd alone is the target process's directory.
    expect(seg('nsenter -t 1 -w tee x', 'tee').writes_unresolved).toBe(true);
  });

  it('reads abbreviated long options as the program does (any unambiguous prefix)', () => {
    // Option models of the program (cp, mv, tee, sed, tar, rsync): the whole option set decides.
    expect(writes('cp --target-dir=.git/hooks pre-commit')).toEqual([
      '/w/.git/hooks',
      '/w/.git/hooks/pre-commit',
    ]);
    expect(writes('cp --target .git/hooks pre-commit')).toEqual([
      '/w/.git/hooks',
      '/w/.git/hooks/pre-commit',
    ]);
    expect(writes('mv --t /etc x')).toEqual(['/etc', '/etc/x', '/w/x']);
    expect(writes('sed --in-pl=.bak s/a/b/ .envrc')).toEqual(['/w/.envrc']);
    expect(writes('tar --extr -f a.tar --direc .git/hooks')).toEqual(['/w/.git/hooks']);
    expect(writes('rsync -a --remove-source notes/ /tmp/x')).toEqual(['/tmp/x', '/w/notes']);
    // Models without one: the options the write model names.
    expect(writes('install --target=.git/hooks -m 755 x')).toEqual(['/w/.git/hooks', '/w/.git/hooks/x']);
    expect(writes('gzip --decomp q.sh.gz')).toEqual(['/w/q.sh.gz', '/w/q.sh']);
    expect(writes('wget --output-doc=run.sh http://127.0.0.1/x')).toEqual(['/w/run.sh']);
    // A read-only option's abbreviation is read-only too; an ambiguous one is refused by the program.
    expect(writes('gzip --stdo a')).toEqual([]);
    expect(writes('cp --no a b')).toEqual(['/w/b', '/w/b/a']);
  });

  it('a name copied into a directory is unknown when its source is (cp dot/$f ~/)', () => {
    expect(seg('f=.bashrc; cp dot/$f ~/', 'cp').writes_unresolved).toBe(true);
    expect(seg('cp -t ~ "$(ls dot/x)"', 'cp').writes_unresolved).toBe(true);
    expect(seg('cp dot/.bashrc out/', 'cp').writes_unresolved).toBe(false);
  });

  it('archivers unpack into a directory, and those that delete what they archive move it', () => {
    expect(writes('python3 -m zipfile -e p.zip out', 'zipfile')).toEqual(['/w/out']);
    expect(writes('python3 -m tarfile -e p.tar', 'tarfile')).toEqual(['/w']);
    expect(writes('jar xf p.jar')).toEqual(['/w']);
    expect(writes('jar cf app.jar classes')).toEqual(['/w/app.jar']);
    expect(writes('unrar x a.rar')).toEqual(['/w']);
    expect(seg('rar m /tmp/a.rar src').moves).toEqual(['/w/src']);
    expect(seg('rar a -df /tmp/a.rar src').moves).toEqual(['/w/src']);
    expect(seg('rar a /tmp/a.rar src').moves).toBeUndefined();
    expect(seg('7za a -sdel /tmp/a.7z src').moves).toEqual(['/w/src']);
    expect(seg('rsync -a --remove-sent-files src/ /tmp/x/').moves).toEqual(['/w/src']);
  });

  it('always sets writes and writes_unresolved, also without a context', () => {
    const [echo] = parseShell('echo hi').segments;
    expect(echo?.writes).toEqual([]);
    expect(echo?.writes_unresolved).toBe(false);
    expect(parseShell('cp a ../b').segments[0]?.writes).toEqual(['../b', '../b/a']);
    expect(parseShell('rm -rf $DIR/x').segments[0]?.writes_unresolved).toBe(true);
  });
});

describe('output and log files of clients', () => {
  it.each<[string, string]>([
    ["psql -o out.txt -c 'SELECT 1'", '/w/out.txt'],
    ["psql -L query.log -c 'SELECT 1'", '/w/query.log'],
    ["mysql --tee session.log -e 'select 1'", '/w/session.log'],
    ["sqlcmd -Q 'select 1' -o out.txt", '/w/out.txt'],
    ['curl --hsts hsts.txt https://example.com', '/w/hsts.txt'],
    ['http -d -o page.html https://example.com', '/w/page.html'],
  ])('%s writes %s', (command, path) => {
    expect(allWrites(command)).toContain(path);
  });
});

describe('editors that rewrite their inputs', () => {
  it.each<[string, string]>([
    ["gawk -i inplace 'NR<0' notes.txt", '/w/notes.txt'],
    ['gawk --include=inplace -f prog.awk data.txt', '/w/data.txt'],
    ["ed -s notes.txt <<< $',d\\nw'", '/w/notes.txt'],
    ["ed -s notes.txt <<< 'w copy.txt'", '/w/copy.txt'],
  ])('%s writes %s', (command, path) => {
    expect(allWrites(command)).toContain(path);
  });

  it('gawk without the inplace library and ed without w write nothing', () => {
    expect(allWrites("gawk '{ print }' notes.txt")).toEqual([]);
    expect(allWrites("ed -s notes.txt <<< ',p'")).toEqual([]);
  });
});

describe('a for loop over a known list: the body once per value', () => {
  it('binds the variable to each value, so the writes are known', () => {
    expect(allWrites('for f in a.ts b.ts; do sed -i \'s/a/b/\' "$f"; done')).toEqual(['/w/a.ts', '/w/b.ts']);
    expect(allWrites('for f in src/*.ts; do sed -i \'s/a/b/\' "$f"; done')).toEqual(['/w/src/*.ts']);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
    expect(allWrites('for d in one two; do rm -r "${d}"; done')).toEqual(['/w/one', '/w/two']);
  });

  it('leaves the variable unknown where the loop may assign it or the list is not known', () => {
    for (const command of [
      'for f in a.ts; do f=/etc/passwd; rm "$f"; done',
      'for f in a.ts; do read f; rm "$f"; done',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: shell text under test, not a template
      'for f in a.ts; do rm "${f:=/etc/passwd}"; done',
      'for f in $(ls); do rm "$f"; done',
      // Assigned out of sight: a function, a sourced file, a trap, a nameref, eval, arithmetic.
      'g() { f=/etc/passwd; }; for f in a.ts; do g; rm "$f"; done',
      'for f in a.ts; do . ./set.sh; rm "$f"; done',
      'trap \'f=/etc/passwd\' DEBUG; for f in a.ts; do rm "$f"; done',
      'declare -n r=f; for f in a.ts; do r=/etc/passwd; rm "$f"; done',
      'for f in a.ts; do eval \'f=/etc/passwd\'; rm "$f"; done',
      'v=f; for f in a.ts; do (( $v = 5 )); rm "$f"; done',
      `for f in ${Array.from({ length: 17 }, (_, k) => `f${k}`).join(' ')}; do rm "$f"; done`,
    ]) {
      const rm = seg(command, 'rm');
      expect({ command, unresolved: rm.writes_unresolved }).toEqual({ command, unresolved: true });
    }
  });
});

describe('a relative symbolic link points from its own directory', () => {
  it.each<[string, string, string]>([
    ['ln -s ../lib/x.ts src/x.ts', '/w/lib/x.ts', '/w/../lib/x.ts'],
    ['ln -s ../lib/x.ts src/', '/w/lib/x.ts', '/lib/x.ts'],
    ['ln -sf ../../../etc/passwd src/x', '/etc/passwd', '/w/src/etc/passwd'],
  ])('%s points at %s', (command, target, not) => {
    expect(writes(command)).toContain(target);
    expect(writes(command)).not.toContain(posix.normalize(not));
  });

  it('a hard link and ln -r take the source as given', () => {
    expect(writes('ln ../a b')).toContain('/a');
    expect(writes('ln -rs lib/x.ts src/x.ts')).toContain('/w/lib/x.ts');
  });
});

describe('writes that may land after the command returns', () => {
  const later = (command: string) =>
    parseShell(command, { context: { cwd: '/w' } })
      .segments.filter((s) => s.writes_async === true)
      .flatMap((s) => s.writes ?? []);
  it.each<[string, string[]]>([
    ['(sleep 3; cp evil.txt s.sh) >/dev/null 2>&1 &', ['/w/s.sh', '/dev/null']],
    ['cp evil.txt s.sh & cat s.sh', ['/w/s.sh']],
    ['{ sleep 1; mv evil.txt s.sh; } & disown', ['/w/s.sh', '/w/evil.txt']],
    ["bash -c 'cp evil.txt s.sh' &", ['/w/s.sh']],
    ['f() { cp evil.txt s.sh; }; f &', ['/w/s.sh']],
    ['coproc cp evil.txt s.sh', ['/w/s.sh']],
    ['nohup cp evil.txt s.sh', ['/w/s.sh']],
    ['setsid -f cp evil.txt s.sh', ['/w/s.sh']],
    ['systemd-run --user cp evil.txt s.sh', ['/w/s.sh']],
    ["echo 'cp evil.txt s.sh' | batch", ['/w/s.sh']],
    ['true > >(cat evil.txt > s.sh)', ['/w/s.sh']],
  ])('%j: %j', (command, expected) => {
    // Without a file view cp's destination may be a directory too (`s.sh/evil.txt`).
    expect(later(command)).toEqual(expect.arrayContaining(expected));
  });

  it('not a write the command waits for: a list, a pipeline, a subshell in the foreground', () => {
    for (const command of [
      'cp evil.txt s.sh; cat s.sh',
      'cp evil.txt s.sh | cat',
      '(cp evil.txt s.sh)',
      'cat <(cat s.sh)',
    ])
      expect({ command, later: later(command) }).toEqual({ command, later: [] });
  });
});
