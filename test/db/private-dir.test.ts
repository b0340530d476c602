import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, it } from 'node:test';
import { openPglite } from '../../src/db/pglite.ts';

/** The modes found under `dir` (itself included), with how many entries have each. */
async function modes(dir: string): Promise<Record<string, number>> {
  const found: Record<string, number> = {};
  const count = async (file: string) => {
    const mode = ((await stat(file)).mode & 0o777).toString(8);
    found[mode] = (found[mode] ?? 0) + 1;
  };
  await count(dir);
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    await count(path.join(entry.parentPath, entry.name));
  return found;
}

const parent = await mkdtemp(path.join(os.tmpdir(), 'ap-private-dir-'));
after(() => rm(parent, { recursive: true, force: true }));

it('keeps the embedded database’s files to their owner: directories 0700 and files 0600, on the first start and after', async () => {
  const dataDir = path.join(parent, 'data');
  const previous = process.umask(0o022);
  try {
    let db = await openPglite({ dataDir });
    await db.query('create table kept (secret text)');
    await db.close();
    const first = await modes(dataDir);
    assert.deepEqual(Object.keys(first).sort(), ['600', '700'], JSON.stringify(first));

    // A directory left open by an older version, or by hand, is closed again at the next start.
    await chmod(dataDir, 0o755);
    await chmod(path.join(dataDir, 'PG_VERSION'), 0o666);
    db = await openPglite({ dataDir });
    await db.query('create table later (secret text)');
    await db.close();
    const again = await modes(dataDir);
    assert.deepEqual(Object.keys(again).sort(), ['600', '700'], JSON.stringify(again));
  } finally {
    process.umask(previous);
  }
});
