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
    const inFlight = new Promise<void>((resolve) => (started = resolve));
    const server = await startTestServer(engine, {
      extend: (app) => {
        app.get('/probe/slow', async () => {
          started();
          await new Promise<void>((resolve) => (release = resolve));
          return { done: true };
        });
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
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.write('GET /healthz HTTP/1.1\r\nHost: test\r\nX-Request-Id: late-1\r\n\r\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await Promise.all([closed, socketClosed]);

    const [first, second] = received.split(/(?=HTTP\/1\.1 )/);
    assert.match(first ?? '', /^HTTP\/1\.1 200 /);
    assert.match(first ?? '', /\{"done":true\}$/);
    assert.match(second ?? '', /^HTTP\/1\.1 503 /);
    assert.match(second ?? '', /x-request-id: late-1/i);
    const body = JSON.parse((second ?? '').split('\r\n\r\n')[1] ?? '');
    assert.deepEqual(body, { error: 'service_unavailable', message: 'The server is shutting down; retry on another instance.' });
  });
});
