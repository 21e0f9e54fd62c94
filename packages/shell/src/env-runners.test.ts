// Environment and task runners (bundle exec, poetry run, conda run, doppler run, aws-vault exec,
// nix develop -c, mise exec --, dotenv …): the command they run is a segment of its own, found past
// the runner's options and operands; other subcommands, and forms with no command, run nothing.
import { describe, expect, it } from 'vitest';
import { parseShell, viaPackageRunner } from './index.js';

const programs = (command: string) =>
  parseShell(command).segments.map((s) => [s.program, s.via.join(' > ')] as const);

describe('environment and task runners', () => {
  it.each([
    ['bundle exec rake db:drop', 'rake', 'bundle exec'],
    ['bundle --gemfile gems/Gemfile exec rails db:reset', 'rails', 'bundle exec'],
    ['poetry -C api run alembic downgrade base', 'alembic', 'poetry run'],
    ['pipenv run python manage.py flush', 'python', 'pipenv run'],
    ['pdm run -p svc pytest -x', 'pytest', 'pdm run'],
    ['hatch -e lint run ruff check', 'ruff', 'hatch run'],
    ['rye run --pyproject a/pyproject.toml black .', 'black', 'rye run'],
    ['conda run -n analysis --cwd /data rm -r cache', 'rm', 'conda run'],
    ['mamba run --name ml python train.py', 'python', 'mamba run'],
    ['micromamba run -p ./env git clean -fdx', 'git', 'micromamba run'],
    ['doppler run -p shop -c prd -- psql -c "drop table orders"', 'psql', 'doppler run'],
    ['op run --env-file prod.env -- kubectl delete ns shop', 'kubectl', 'op run'],
    ['aws-vault exec --duration 1h prod-admin -- aws s3 rb s3://logs --force', 'aws', 'aws-vault exec'],
    ['aws-vault exec staging terraform destroy', 'terraform', 'aws-vault exec'],
    ['direnv exec ./svc make deploy', 'make', 'direnv exec'],
    ['nix develop .#ci --impure -c cargo publish', 'cargo', 'nix develop'],
    ['nix shell nixpkgs#jq nixpkgs#curl --command curl -X DELETE http://api.internal/x', 'curl', 'nix shell'],
    ['devbox run -c sub/devbox.json dropdb shop', 'dropdb', 'devbox run'],
    ['rbenv exec gem yank tollgate -v 1.0.0', 'gem', 'rbenv exec'],
    ['pyenv exec twine upload dist/*', 'twine', 'pyenv exec'],
    ['asdf exec terraform apply -auto-approve', 'terraform', 'asdf exec'],
    ['mise exec node@20 python@3.12 -- npm publish', 'npm', 'mise exec'],
    ['mise x -- git push -f origin main', 'git', 'mise x'],
    ['volta run --node 20 npm unpublish pkg@1.0.0', 'npm', 'volta run'],
    ['fnm exec --using=18 -- node scripts/wipe.js', 'node', 'fnm exec'],
    ['dotenv -e .env.prod -- prisma migrate reset --force', 'prisma', 'dotenv'],
    ['dotenv -f .env run --override alembic downgrade base', 'alembic', 'dotenv'],
  ])('%s runs %s', (command, program, via) => {
    expect(programs(command)).toContainEqual([program, via]);
  });

  it('parses a shell string handed to the runner', () => {
    expect(programs("doppler run --command 'rm -rf ./data'")).toContainEqual(['rm', 'doppler run --command']);
    expect(programs("mise exec node@20 -c 'git reset --hard'")).toContainEqual([
      'git',
      'mise exec --command',
    ]);
    expect(parseShell('doppler run --command="$X"').dynamic.map((d) => d.kind)).toContain('unresolved_code');
  });

  it('an option value or the runner operand is never read as the command', () => {
    const run = (command: string) => programs(command).map(([p]) => p);
    expect(run('conda run -n rm python x.py')).toEqual(['python', 'conda']);
    expect(run('aws-vault exec rm -- ls')).toEqual(['ls', 'aws-vault']);
    expect(run('doppler run -c git -- npm start')).toEqual(['npm', 'doppler']);
  });

  it('forms that run no command have only the runner segment', () => {
    for (const command of [
      'bundle install',
      'poetry install --sync',
      'conda env list',
      'nix develop .#default',
      'mise exec node@20',
      'pdm run --list',
      'doppler secrets download --no-file',
    ]) {
      expect(programs(command).map(([p]) => p)).toEqual([command.split(' ')[0]]);
    }
  });

  it('is not a package runner: the hooks do not take `bundle exec tollgate` for the CLI', () => {
    expect(viaPackageRunner(['bundle exec'])).toBe(false);
    expect(viaPackageRunner(['doppler run'])).toBe(false);
  });
});
