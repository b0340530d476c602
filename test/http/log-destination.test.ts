import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it, mock } from 'node:test';
import { BatchedLogDestination } from '../../src/http/log-destination.ts';

const flushed = (destination: BatchedLogDestination) =>
  new Promise<void>((resolve, reject) => destination.flush((err) => (err ? reject(err) : resolve())));

describe('batched log destination', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ap-log-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('writes every line in order, those of one batch window in one write', async () => {
    const path = join(dir, 'batches.log');
    const fd = fs.openSync(path, 'w');
    const writes = mock.method(fs, 'write');
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const destination = new BatchedLogDestination(fd);
      const lines = Array.from({ length: 600 }, (_, i) => `{"n":${i},"msg":"été ${i}"}\n`);
      // Lines logged on separate turns of the event loop, as requests arriving one at a time log.
      for (const line of lines.slice(0, 300)) {
        destination.write(line);
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(writes.mock.callCount(), 0, 'nothing written before the window closes');
      mock.timers.tick(10);
      await flushed(destination);
      assert.equal(writes.mock.callCount(), 1, 'one write for the lines of the window');
      for (const line of lines.slice(300)) destination.write(line);
      await flushed(destination);
      assert.equal(writes.mock.callCount(), 2, 'flush writes what waits without waiting for the window');
      assert.equal(await readFile(path, 'utf8'), lines.join(''));
    } finally {
      mock.timers.reset();
      writes.mock.restore();
      fs.closeSync(fd);
    }
  });

  it('writes a long batch at once', async () => {
    const path = join(dir, 'long.log');
    const fd = fs.openSync(path, 'w');
    const writes = mock.method(fs, 'write');
    mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const destination = new BatchedLogDestination(fd);
      for (let i = 0; i < 1000; i++) destination.write(`line ${i}\n`);
      assert.equal(writes.mock.callCount(), 1, 'the thousandth line sends the batch without waiting for the window');
      await flushed(destination);
      assert.equal(await readFile(path, 'utf8'), Array.from({ length: 1000 }, (_, i) => `line ${i}\n`).join(''));
    } finally {
      mock.timers.reset();
      writes.mock.restore();
      fs.closeSync(fd);
    }
  });

  it('writes what is still waiting when the process exits', async () => {
    const module = fileURLToPath(new URL('../../src/http/log-destination.ts', import.meta.url));
    // Logs and exits in the same turn: no asynchronous write could have run.
    const script = `import { standardOutputLog } from ${JSON.stringify(module)};
      const log = standardOutputLog();
      for (let i = 0; i < 500; i++) log.write('line ' + i + '\\n');
      process.exit(0);`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const [code] = (await once(child, 'close')) as [number | null];
    assert.equal(code, 0);
    assert.equal(stdout, Array.from({ length: 500 }, (_, i) => `line ${i}\n`).join(''));
  });
});
