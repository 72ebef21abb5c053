import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { packageRoot } from '../../src/shared/package-root.js';

type PackageRootModule = typeof import('../../src/shared/package-root.js');

const here = dirname(fileURLToPath(import.meta.url));
const SRC_DIR = resolve(here, '../../src/shared');

t.test('packageRoot finds the folder of scopegate`s package.json', async (t) => {
  const root = packageRoot();
  t.equal(root, resolve(here, '../..'));
  t.equal(
    (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string }).name,
    'scopegate',
  );
  t.equal(packageRoot(), root, 'a second call answers the same folder');
});

t.test('packageRoot skips a package.json of another package on the way up', async (t) => {
  const read: string[] = [];
  const { packageRoot: find } = await t.mockImport<PackageRootModule>(
    '../../src/shared/package-root.js',
    {
      'node:fs': {
        existsSync: (path: string) =>
          path === join(SRC_DIR, 'package.json') ||
          path === join(resolve(SRC_DIR, '..'), 'package.json'),
        readFileSync: (path: string) => {
          read.push(path);
          return JSON.stringify({
            name: path === join(SRC_DIR, 'package.json') ? 'some-other-package' : 'scopegate',
          });
        },
      },
    },
  );
  t.equal(find(), resolve(SRC_DIR, '..'));
  t.same(read, [join(SRC_DIR, 'package.json'), join(resolve(SRC_DIR, '..'), 'package.json')]);
  t.equal(find(), resolve(SRC_DIR, '..'), 'cached: no second walk');
  t.equal(read.length, 2, 'nothing read on the cached call');
});

t.test(
  'packageRoot throws when no scopegate package.json is found up to the file-system root',
  async (t) => {
    const { packageRoot: find } = await t.mockImport<PackageRootModule>(
      '../../src/shared/package-root.js',
      {
        'node:fs': { existsSync: () => false, readFileSync: () => '{}' },
      },
    );
    t.throws(() => find(), {
      message: /^scopegate package\.json not found above .*package-root\.ts$/,
    });
  },
);
