import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { it } from 'node:test';
import { eachEngine } from './support/engines.ts';
import { startTestServer } from './support/server.ts';

eachEngine('graceful shutdown', (engine) => {
  it('finishes in-flight requests and turns new ones away with 503 in the catalogue shape', async () => {
    let release!: () => void;
    let started!: () => void;
    let closing!: () => void;
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    // Hooks run in order, so this one runs after the server has begun turning requests away.
    const turningAway = new Promise<void>((resolve) => (closing = resolve));
    const server = await startTestServer(engine, {
      extend: (app) => {
        app.get('/probe/slow', async () => {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          return { done: true };
        });
        app.addHook('preClose', async () => closing());
      },
    });
    // One keep-alive connection: a slow request, then a second one sent while the server closes.
    const socket = connect(Number(new URL(server.url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk));
    // The server ends the connection after the 503 (Connection: close).
    const socketClosed = once(socket, 'close');
    socket.write('GET /probe/slow HTTP/1.1\r\nHost: test\r\n\r\n');
    await inFlight;
    const closed = server.close();
    await turningAway;
    // The late request must reach the server while the slow one still holds the connection busy:
    // once that one is answered, the connection is idle and shutdown closes it.
    const lateArrived = once(server.app.server, 'request');
    socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Request-Id: late-1\r\n\r\n');
    await lateArrived;
    release();
    await Promise.all([closed, socketClosed]);

    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    assert.match(first ?? '', /^HTTP\/1\.1 200 /);
    assert.match(first ?? '', /\{"done":true\}$/);
    assert.match(second ?? '', /^HTTP\/1\.1 503 /);
    assert.match(second ?? '', /x-request-id: late-1/i);
    const body = JSON.parse((second ?? '').split('\r\n\r\n')[1] ?? '');
    assert.deepEqual(body, {
      error: 'service_unavailable',
      message: 'The server is shutting down; retry on another instance.',
    });
  });
});
