import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { it } from 'node:test';
import { envVars } from '../../src/config.ts';

const doc = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');

it('lists every setting in docs/configuration.md, and no setting that is gone', () => {
  const listed = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \| /gm)].map((m) => m[1]!);
  assert.deepEqual(
    Object.keys(envVars).filter((name) => !listed.includes(name)),
    [],
    'every environment variable has its row',
  );
  assert.deepEqual(
    listed.filter((name) => !(name in envVars)),
    [],
    'no row names a variable the server does not read',
  );
});
