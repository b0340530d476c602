import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { it } from 'node:test';
import Fastify from 'fastify';
import '../../src/http/route-config.ts';
import { logRequests } from '../../src/http/request-log.ts';

it('logs one line per request at info, and the per-impression lookups only at debug', async () => {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const requests = () => lines.filter((l) => l['msg'] === 'request').map((l) => [l['route'], l['status'], l['level']]);
  for (const level of ['info', 'debug'] as const) {
    lines.length = 0;
    const app = Fastify({ logger: { level, stream }, disableRequestLogging: true });
    logRequests(app);
    app.get('/page', async () => ({ ok: true }));
    app.get('/check', { config: { requestLog: 'debug' } }, async () => ({ ok: true }));
    await app.inject('/page');
    await app.inject('/check');
    await app.inject('/missing');
    await app.close();
    // pino's levels: 30 info, 20 debug.
    const expected =
      level === 'info'
        ? [
            ['/page', 200, 30],
            [undefined, 404, 30],
          ]
        : [
            ['/page', 200, 30],
            ['/check', 200, 20],
            [undefined, 404, 30],
          ];
    assert.deepEqual(requests(), expected, `at LOG_LEVEL=${level}`);
  }
});
