// Package runners (npx, pnpx, bunx, uvx, npm exec, pnpm dlx|exec, yarn dlx|exec, bun x, uv run,
// uv tool run, pipx run): the command they run is a segment of its own, found past the runner's
// options; a shell string given to one is parsed as shell; other subcommands run nothing.
import { describe, expect, it } from 'vitest';
import { parseShell, viaPackageRunner } from './index.js';

const programs = (command: string) =>
  parseShell(command).segments.map((s) => [s.program, s.via.join(' > ')] as const);

describe('package runners', () => {
  it.each([
    ['npx wrangler r2 bucket delete uploads', 'wrangler', 'npx'],
    ['npx --yes -p firebase-tools firebase functions:delete mail', 'firebase', 'npx'],
    ['npx --package=@acme/cli acme purge --all', 'acme', 'npx'],
    ['npm exec -- vercel rm old --yes', 'vercel', 'npm exec'],
    ['npm --prefix app x prisma migrate reset', 'prisma', 'npm x'],
    ['pnpm --filter web dlx supabase db reset', 'supabase', 'pnpm dlx'],
    ['pnpm exec jest --ci', 'jest', 'pnpm exec'],
    ['pnpx netlify sites:delete site-1', 'netlify', 'pnpx'],
    ['yarn dlx -p @acme/cli acme drop', 'acme', 'yarn dlx'],
    ['bunx --bun drizzle-kit drop', 'drizzle-kit', 'bunx'],
    ['bun x turbo run build', 'turbo', 'bun x'],
    ['uvx --from httpie http GET :8000', 'http', 'uvx'],
    ['uv run --with rich python tools/report.py', 'python', 'uv run'],
    ['uv tool run ruff check .', 'ruff', 'uv tool run'],
    ['pipx run --spec black==24.1 black --check .', 'black', 'pipx run'],
  ])('%s runs %s', (command, program, via) => {
    expect(programs(command)).toContainEqual([program, via]);
  });

  it('parses the shell string of npm --call and pnpm --shell-mode', () => {
    expect(programs("npm exec -c 'rm -rf ~/work'")).toContainEqual(['rm', 'npm exec --call']);
    expect(programs("npx --call='git push -f origin main'")).toContainEqual(['git', 'npx --call']);
    expect(programs('pnpm dlx -c rm -rf ~/work')).toContainEqual(['rm', 'pnpm dlx --shell-mode']);
  });

  it('a shell string built at run time is not trusted', () => {
    const facts = parseShell('npx -c "$CMD"');
    expect(facts.dynamic.map((d) => d.kind)).toContain('unresolved_code');
  });

  it('other subcommands of a package manager run no package binary', () => {
    for (const command of [
      'npm install left-pad',
      'pnpm add -D vitest',
      'yarn add react',
      'uv pip install rich',
    ]) {
      expect(programs(command).map(([p]) => p)).toEqual([command.split(' ')[0]]);
    }
  });

  it('the runner keeps a segment of its own', () => {
    expect(programs('npx -y cowsay hi').map(([p]) => p)).toEqual(['cowsay', 'npx']);
  });

  it('viaPackageRunner names the runners and only them', () => {
    expect(viaPackageRunner(['npx'])).toBe(true);
    expect(viaPackageRunner(['sudo', 'pnpm dlx'])).toBe(true);
    expect(viaPackageRunner(['uv tool run'])).toBe(true);
    expect(viaPackageRunner(['npm exec --call'])).toBe(false);
    expect(viaPackageRunner(['pnpm dlx --shell-mode'])).toBe(false);
    expect(viaPackageRunner(['npm install'])).toBe(false);
    expect(viaPackageRunner(['bash -c'])).toBe(false);
    expect(viaPackageRunner([])).toBe(false);
  });
});
