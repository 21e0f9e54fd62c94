// Which options take a separate value, per program (and per git subcommand). Knowing them keeps an
// option's value out of `positionals` and `subcommand` (`git commit -m "reset --hard"` has no
// positional "reset --hard"; `kubectl -n prod delete pod x` has subcommand `delete`).

const set = (text: string): ReadonlySet<string> => new Set(text.split(' '));

/** Compose's own options (`docker compose -f a.yml -p proj down`): a sub-CLI with its own table. */
const COMPOSE = set(
  '-f --file -p --project-name --env-file --profile --project-directory --ansi --parallel --progress -H --host -c --context',
);

/** Options before the subcommand that take a value. */
export const GLOBAL_VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  git: set('-C -c --git-dir --work-tree --namespace --config-env --super-prefix'),
  kubectl: set(
    '-n --namespace --context --cluster --kubeconfig --user -s --server --token --as --as-group --request-timeout -v ' +
      '--cache-dir --certificate-authority --client-certificate --client-key --password --username ' +
      '--tls-server-name --profile --profile-output --log-file --log-dir --v --vmodule --as-uid --kuberc ' +
      '--log-flush-frequency --log-file-max-size --stderrthreshold ' +
      // Subcommand options that take a value: a word after them (`-f --help`) is a file name, not usage.
      '-f --filename -k --kustomize -l --selector -o --output --field-selector -c --container --type --cascade ' +
      '--grace-period --timeout --for --template -L --label-columns --sort-by --chunk-size --field-manager ' +
      '--raw --overrides --pod-selector --prune-allowlist --subresource --output-watch-events --local-ssd-count',
  ),
  oc: set('-n --namespace --context --cluster --kubeconfig --user -s --server --token'),
  helm: set(
    '-n --namespace --kube-context --kubeconfig --kube-token --kube-apiserver --registry-config --kube-as-user ' +
      '--kube-as-group --kube-ca-file --kube-tls-server-name --burst-limit --qps --repository-cache ' +
      '--repository-config --content-cache',
  ),
  docker: set('-H --host --context -c --config -l --log-level --tlscacert --tlscert --tlskey'),
  podman: set(
    '--connection -c --url --root --runroot --log-level --storage-driver --storage-opt --cgroup-manager --runtime ' +
      '--runtime-flag --tmpdir --volumepath --imagestore --identity --events-backend --network-cmd-path ' +
      '--network-config-dir --module --hooks-dir --conmon --ssh --db-backend --cni-config-dir',
  ),
  'docker-compose': COMPOSE,
  'podman-compose': COMPOSE,
  nerdctl: set('-n --namespace -a --address -H --host --snapshotter --cni-path --data-root --cgroup-manager'),
  aws: set(
    '--region --profile --output --endpoint-url --query --color --ca-bundle --cli-read-timeout --cli-connect-timeout',
  ),
  gcloud: set('--project --account --configuration --format --verbosity --impersonate-service-account'),
  gsutil: set('-o -h -u'),
  az: set('--subscription -o --output --query'),
  gh: set('-R --repo'),
  glab: set('-R --repo'),
  terraform: set(
    '-chdir -var -var-file -target -replace -state -state-out -backup -lock-timeout -parallelism -out -generate-config-out',
  ),
  tofu: set(
    '-chdir -var -var-file -target -replace -state -state-out -backup -lock-timeout -parallelism -out -generate-config-out',
  ),
  vault: set('-address -namespace --namespace -format'),
  restic: set('-r --repo -o --option --password-file --cache-dir'),
  borg: set('--remote-path --lock-wait'),
  rclone: set('--config'),
  mc: set('--config-dir'),
  doppler: set('--config-dir'),
  op: set('--account --session --config'),
  stripe: set('--api-key --project-name'),
  heroku: set('-a --app -r --remote'),
  flyctl: set('-a --app -c --config'),
  fly: set('-a --app -c --config'),
  npm: set('-w --workspace --prefix -C --registry --userconfig --cache --loglevel'),
  pnpm: set(
    '-C --dir -F --filter --filter-prod --reporter --loglevel --workspace-concurrency --resume-from --test-pattern --changed-files-ignore-pattern',
  ),
  yarn: set('--cwd --modules-folder --cache-folder --global-folder --mutex --network-timeout'),
  bun: set('--cwd -c --config --env-file -r --preload --tsconfig-override'),
  cargo: set('--manifest-path -Z --config'),
  psql: set(
    '-c --command -d --dbname -h --host -p --port -U --username -f --file -v --set --variable -o --output -P -F -R',
  ),
  mysql: set('-e --execute -h --host -P --port -u --user -D --database -S --socket --default-character-set'),
  mariadb: set('-e --execute -h --host -P --port -u --user -D --database -S --socket'),
  'redis-cli': set('-h -p -a -n -u --user --pass -s --askpass -r -i --pattern'),
  'clickhouse-client': set('-q --query -h --host --port -u --user --password -d --database --format'),
  mongosh: set('--eval --host --port -u --username -p --password --authenticationDatabase --file -f'),
  mongo: set('--eval --host --port -u --username -p --password --authenticationDatabase'),
  sqlite3: set('-cmd -separator -newline -nullvalue -init -vfs'),
  curl: set(
    '-X --request -d --data --data-raw --data-binary --data-urlencode --json -H --header -o --output -u --user -A --user-agent -e --referer -F --form -b --cookie -c --cookie-jar -T --upload-file -w --write-out -x --proxy -m --max-time --connect-timeout -K --config --cacert --cert --key -E -r --range --retry',
  ),
  wget: set('-O --output-document -o --output-file --method --body-data --header -U --user-agent -P'),
  find: set(
    '-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -type -xtype -user -group -uid -gid -perm -size -mtime -atime -ctime -mmin -amin -cmin -newer -anewer -cnewer -samefile -inum -links -maxdepth -mindepth -fprint -fprint0 -fls -printf -used -fstype -context -regextype -D -f -files0-from',
  ),
  ssh: set('-b -c -D -E -e -F -I -i -J -L -l -m -O -o -p -Q -R -S -W -w -B'),
  rsync: set(
    '-e --rsh --exclude --include --filter -f --files-from --password-file --log-file --backup-dir --suffix -T --temp-dir',
  ),
  scp: set('-P -i -o -F -c -l -S -J'),
  systemctl: set('-H --host -M --machine -t --type -s --signal -p --property --root'),
  dd: set(''),
  journalctl: set('-u --unit -n --lines -p --priority --since --until -o --output'),
};

/**
 * Sub-CLIs whose options differ from their parent's, by parent and first positional: after
 * `docker compose`, `-p` takes the project name.
 */
export const SUBCOMMAND_VALUE_OPTIONS: Record<string, Record<string, ReadonlySet<string>>> = {
  docker: { compose: COMPOSE },
  podman: { compose: COMPOSE },
  nerdctl: { compose: COMPOSE },
};

/** Git subcommand options that take a separate value. */
export const GIT_VALUE_OPTIONS: Record<string, ReadonlySet<string>> = {
  commit: set(
    '-m --message -F --file -c -C --reuse-message --reedit-message --author --date -t --template --fixup --squash --cleanup --trailer',
  ),
  checkout: set('-b -B --orphan --conflict'),
  switch: set('-c -C --create --force-create --orphan --conflict'),
  restore: set('-s --source --conflict --inter-hunk-context -U --unified --pathspec-from-file'),
  reset: set('--pathspec-from-file'),
  push: set('--repo -o --push-option --receive-pack --exec'),
  pull: set('-s --strategy -X --strategy-option'),
  fetch: set('--depth --deepen --shallow-since --shallow-exclude -j --jobs --upload-pack'),
  branch: set(
    '-u --set-upstream-to --contains --no-contains --merged --no-merged --points-at --format --sort',
  ),
  tag: set('-m --message -F --file -u --local-user --contains --no-contains --points-at --format --sort'),
  stash: set('-m --message --pathspec-from-file'),
  clean: set('-e --exclude'),
  rm: set('--pathspec-from-file'),
  merge: set('-m -F --file -s --strategy -X --strategy-option'),
  rebase: set('-s --strategy -X --strategy-option --onto -x --exec'),
  log: set('-n --max-count --author --grep --since --until --format --pretty'),
  worktree: set('-b -B --reason'),
  'update-ref': set('-m'),
  'filter-branch': set(
    '--env-filter --tree-filter --index-filter --parent-filter --msg-filter --commit-filter --tag-name-filter --subdirectory-filter --prune-empty -d',
  ),
  gc: set(''),
  reflog: set(''),
  clone: set('-b --branch -o --origin --depth -c --config --reference --template'),
  remote: set('-t -m'),
  config: set('-f --file --type --default'),
};

/** Long options that may be written `--name value` are also accepted as `--name=value` everywhere. */
export function takesValue(table: ReadonlySet<string> | undefined, flag: string): boolean {
  return table !== undefined && !flag.includes('=') && table.has(flag);
}
