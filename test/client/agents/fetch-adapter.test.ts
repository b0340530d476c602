import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { fetchThrough } from '../../../src/client/agents/index.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { FetchError } from '../../../src/net/fetch-error.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';

let server: http.Server;
let base: string;
let safe: SafeFetch;
const seen: Array<{ method: string; body: string; authorization: string | undefined }> = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, body, authorization: req.headers.authorization });
      if (req.url === '/empty') return void res.writeHead(204).end();
      res
        .writeHead(201, { 'content-type': 'application/json', 'x-answer': 'yes' })
        .end(JSON.stringify({ echoed: body }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  safe = new SafeFetch({ allow: parseAllowList(new URL(base).host) });
});
after(async () => {
  await safe.close();
  await new Promise((resolve) => server.close(resolve));
});

it('sends a request through the SSRF-safe client and answers a Response with its status, headers and body', async () => {
  const fetch = fetchThrough(safe, { headers: { Authorization: 'Bearer default' } });
  const response = await fetch(new URL(`${base}/mcp`), {
    method: 'POST',
    headers: new Headers({ 'content-type': 'application/json' }),
    body: '{"a":1}',
  });
  assert.equal(response.status, 201);
  assert.equal(response.headers.get('x-answer'), 'yes');
  assert.deepEqual(await response.json(), { echoed: '{"a":1}' });
  assert.deepEqual(seen.at(-1), { method: 'POST', body: '{"a":1}', authorization: 'Bearer default' });
  const own = await fetch(`${base}/mcp`, { headers: { authorization: 'Bearer own' } });
  assert.equal(own.status, 201);
  assert.equal(seen.at(-1)!.authorization, 'Bearer own', 'the request’s own header wins');
  assert.equal((await fetch(`${base}/empty`)).status, 204);
});

it('answers the MCP client’s standalone GET stream with 405 without sending it', async () => {
  const before = seen.length;
  const response = await fetchThrough(safe)(`${base}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream' } });
  assert.equal(response.status, 405);
  assert.equal(seen.length, before);
  // A GET that also takes JSON (an A2A agent card) is sent.
  assert.equal(
    (await fetchThrough(safe)(`${base}/card`, { headers: { accept: 'application/json, text/event-stream' } })).status,
    201,
  );
});

it('keeps the fetch policy: a host the allow list does not name is refused with a FetchError', async () => {
  const strict = new SafeFetch();
  try {
    await assert.rejects(
      fetchThrough(strict)(`${base}/mcp`),
      (err: unknown) => err instanceof FetchError && err.reason === 'forbidden_address',
    );
  } finally {
    await strict.close();
  }
});

it('rejects at once when the caller aborts', async () => {
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(fetchThrough(safe)(`${base}/mcp`, { signal: controller.signal }), { name: 'AbortError' });
});
