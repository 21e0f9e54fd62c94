// The operation words of a CLI call: option values given after the command began and the operands of a
// read verb are left out; switches before the first command word do not hide it.
import { describe, expect, it } from 'vitest';
import { parseShell } from './index.js';

const operation = (command: string) => parseShell(command).segments[0]?.operation;

describe('operation', () => {
  it.each([
    [
      'gcloud compute instances delete web-3 --zone europe-west4-a',
      ['compute', 'instances', 'delete', 'web-3'],
    ],
    ['aws --profile ops --region eu-west-1 ec2 delete-snapshot --snapshot-id s', ['ec2', 'delete-snapshot']],
    ['splunk --accept-license remove index weblogs', ['remove', 'index', 'weblogs']],
    ['restic --verbose forget 4bba301e', ['forget', '4bba301e']],
    ['rabbitmqadmin -H mq.local purge queue name=jobs', ['mq.local', 'purge', 'queue', 'name=jobs']],
    ['tool run -- cleanup purge', ['run', 'cleanup', 'purge']],
  ])('%s keeps its verb', (command, words) => {
    expect(operation(command)).toEqual(words);
  });

  it.each([
    ['aws lambda invoke --function-name delete-stale out.json', ['lambda', 'invoke', 'out.json']],
    ['az vm show -g ops -n purge-later', ['vm', 'show']],
    ['gcloud run services describe wipe-worker --region us-east1', ['run', 'services', 'describe']],
    ['stripe charges list --customer remove-me', ['charges', 'list']],
    ['restic -r /srv/backup snapshots --tag pre-delete', ['snapshots']],
    ['aws s3api list-objects-v2 --bucket b --prefix drop/', ['s3api', 'list-objects-v2']],
    ['tool sync --filter=delete target', ['sync', 'target']],
  ])('%s leaves out values and read operands', (command, words) => {
    expect(operation(command)).toEqual(words);
  });

  it.each([
    ['pip install remove-bg', ['install']],
    ['uv pip install drop-shadow', ['pip', 'install']],
    ['poetry add django-reset-migrations', ['add']],
    ['pip download remove-bg -d wheels', ['download']],
  ])('%s stops at the package verb: its operands are package names', (command, words) => {
    expect(operation(command)).toEqual(words);
  });
});
