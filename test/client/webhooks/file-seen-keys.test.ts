import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FileSeenKeys } from '../../../src/client/webhooks/file-seen-keys.ts';
import { ManualClock } from '../../support/clock.ts';

describe('processed idempotency keys kept on disk', () => {
  let root: string;
  let n = 0;
  const freshDir = () => join(root, `state-${++n}`);
  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'ap-seen-keys-'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('claims a key once: concurrent claims of it are told it is in progress until it is committed or released', async () => {
    const seen = await FileSeenKeys.open({ dir: freshDir() });
    try {
      const claims = await Promise.all(Array.from({ length: 20 }, () => seen.claim('k1')));
      assert.deepEqual(
        [claims.filter((c) => c === true).length, claims.filter((c) => c === 'in-progress').length],
        [1, 19],
      );
      seen.release('k1');
      assert.equal(seen.claim('k1'), true, 'a released key is processed again');
      await seen.commit('k1');
      assert.equal(seen.claim('k1'), false, 'a committed key is a duplicate');
    } finally {
      await seen.close();
    }
  });

  it('remembers committed keys, and only those, across a reopen; commits made together share the file', async () => {
    const dir = freshDir();
    const first = await FileSeenKeys.open({ dir });
    const keys = Array.from({ length: 50 }, (_, i) => `key-${i}`);
    for (const key of [...keys, 'dropped']) assert.equal(first.claim(key), true);
    await Promise.all(keys.map((key) => first.commit(key)));
    first.release('dropped');
    await first.close();

    const lines = (await readFile(join(dir, 'seen-keys.jsonl'), 'utf8')).trim().split('\n');
    assert.deepEqual(lines.map((l) => JSON.parse(l).key).sort(), [...keys].sort());

    const second = await FileSeenKeys.open({ dir });
    try {
      assert.equal(second.size, 50);
      assert.equal(second.claim('key-7'), false);
      assert.equal(second.claim('dropped'), true);
    } finally {
      await second.close();
    }
  });

  it('drops a last line torn by a crash, keeping the lines before it, and appends whole lines after it', async () => {
    const dir = freshDir();
    const seen = await FileSeenKeys.open({ dir });
    seen.claim('whole');
    await seen.commit('whole');
    await seen.close();
    await writeFile(
      join(dir, 'seen-keys.jsonl'),
      `${await readFile(join(dir, 'seen-keys.jsonl'), 'utf8')}{"key":"torn","at":"20`,
    );

    const reopened = await FileSeenKeys.open({ dir });
    assert.equal(reopened.claim('whole'), false);
    assert.equal(reopened.claim('torn'), true, 'a key whose write never finished was never acknowledged');
    await reopened.commit('torn');
    await reopened.close();
    const again = await FileSeenKeys.open({ dir });
    try {
      assert.equal(again.size, 2);
      assert.equal(again.claim('torn'), false);
    } finally {
      await again.close();
    }
  });

  it('forgets keys older than the retention while it runs, once a day, and keeps the log to them', async () => {
    const dir = freshDir();
    const clock = new ManualClock();
    const seen = await FileSeenKeys.open({ dir, clock, retainDays: 30 });
    try {
      for (let day = 0; day < 90; day++) {
        seen.claim(`key-${day}`);
        await seen.commit(`key-${day}`);
        clock.advance(86_400_000);
      }
      assert.ok(seen.size <= 31, `${seen.size} keys kept`);
      assert.equal(seen.claim('key-89'), false, 'a recent key is still a duplicate');
      assert.equal(seen.claim('key-10'), true, 'an old one is forgotten');
      const lines = (await readFile(join(dir, 'seen-keys.jsonl'), 'utf8')).trim().split('\n');
      assert.ok(lines.length <= 31, `${lines.length} lines in the log`);
    } finally {
      await seen.close();
    }
    const reopened = await FileSeenKeys.open({ dir, clock, retainDays: 30 });
    try {
      assert.equal(reopened.claim('key-89'), false, 'the compacted log is read back whole');
    } finally {
      await reopened.close();
    }
  });

  it('forgets keys older than the retention when it opens', async () => {
    const dir = freshDir();
    const clock = new ManualClock();
    const seen = await FileSeenKeys.open({ dir, clock, retainDays: 30 });
    seen.claim('old');
    await seen.commit('old');
    clock.advance(20 * 86_400_000);
    seen.claim('recent');
    await seen.commit('recent');
    await seen.close();

    clock.advance(15 * 86_400_000);
    const reopened = await FileSeenKeys.open({ dir, clock, retainDays: 30 });
    try {
      assert.equal(reopened.size, 1);
      assert.equal(reopened.claim('recent'), false);
      assert.equal(reopened.claim('old'), true);
      assert.doesNotMatch(await readFile(join(dir, 'seen-keys.jsonl'), 'utf8'), /"old"/, 'compacted');
    } finally {
      await reopened.close();
    }
  });

  it('keeps a second holder off the directory, and takes over the lock of a process that died', async () => {
    const dir = freshDir();
    const seen = await FileSeenKeys.open({ dir });
    await assert.rejects(FileSeenKeys.open({ dir }), new RegExp(`in use by process ${process.pid}`));
    await seen.close();

    const child = spawn(process.execPath, ['-e', '']);
    await once(child, 'exit');
    await writeFile(join(dir, 'lock'), String(child.pid));
    const taken = await FileSeenKeys.open({ dir });
    assert.equal(await readFile(join(dir, 'lock'), 'utf8'), String(process.pid));
    await taken.close();
  });
});
