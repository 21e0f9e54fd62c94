// Framework launchers are read as the framework's CLI only while they are the generated file.
import { describe, expect, it } from 'vitest';
import { isFrameworkLauncher } from './framework-launchers.js';

const DJANGO = `#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""
import os
import sys


def main():
    """Run administrative tasks."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mysite.settings")
    try:
        from django.core.management import execute_from_command_line
    except ImportError as exc:
        raise ImportError(
            "Couldn't import Django. Are you sure it's installed and "
            "available on your PYTHONPATH environment variable? Did you "
            "forget to activate a virtual environment?"
        ) from exc
    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
`;

const RAILS = `#!/usr/bin/env ruby
APP_PATH = File.expand_path("../config/application", __dir__)
require_relative "../config/boot"
require "rails/commands"
`;

const LARAVEL = `#!/usr/bin/env php
<?php

use Illuminate\\Foundation\\Application;
use Symfony\\Component\\Console\\Input\\ArgvInput;

define('LARAVEL_START', microtime(true));

// Register the Composer autoloader...
require __DIR__.'/vendor/autoload.php';

// Bootstrap Laravel and handle the command...
/** @var Application $app */
$app = require_once __DIR__.'/bootstrap/app.php';

$status = $app->handleCommand(new ArgvInput);

exit($status);
`;

describe('framework launchers', () => {
  it('recognises the generated files', () => {
    expect(isFrameworkLauncher('python', DJANGO)).toBe(true);
    expect(isFrameworkLauncher('ruby', RAILS)).toBe(true);
    expect(isFrameworkLauncher('php', LARAVEL)).toBe(true);
  });

  it('refuses a launcher with anything added', () => {
    expect(
      isFrameworkLauncher(
        'python',
        DJANGO.replace('import sys', "import sys\nimport shutil\nshutil.rmtree('data')"),
      ),
    ).toBe(false);
    expect(isFrameworkLauncher('python', DJANGO.replace('main()\n', "main()\nos.system('rm -rf ~')\n"))).toBe(
      false,
    );
    expect(
      isFrameworkLauncher('python', DJANGO.replace('"mysite.settings"', '__import__("os").system("x")')),
    ).toBe(false);
    expect(isFrameworkLauncher('ruby', `${RAILS}system("rm -rf ~")\n`)).toBe(false);
    expect(isFrameworkLauncher('ruby', RAILS.replace('"../config/boot"', '"#{`rm -rf ~`}"'))).toBe(false);
    expect(
      isFrameworkLauncher('php', LARAVEL.replace('exit($status);', "system('rm -rf ~');\nexit($status);")),
    ).toBe(false);
    expect(isFrameworkLauncher('python', RAILS)).toBe(false);
  });
});
