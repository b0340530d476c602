import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { parseAllowList } from '../../src/net/allow-list.ts';
import { FetchError, type FetchErrorReason } from '../../src/net/fetch-error.ts';
import { staticResolver } from '../../src/net/resolver.ts';
import { SafeFetch } from '../../src/net/safe-fetch.ts';
import { recordConnectionAttempts, startLocalServer, type LocalServer } from './local-servers.ts';

function refusal(reason: FetchErrorReason, details: { host?: string; range?: string } = {}) {
  return (error: unknown) => {
    assert.ok(error instanceof FetchError, `expected a FetchError, got ${String(error)}`);
    assert.equal(error.reason, reason, error.message);
    if (details.host !== undefined) assert.equal(error.host, details.host);
    if (details.range !== undefined) assert.equal(error.range, details.range);
    return true;
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

async function echo(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const body = await readBody(req);
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body }));
}

const chunk = Buffer.alloc(64 * 1024, 'a');

// Resolves when the server notices the client went away mid-response.
let streamAbandoned: Promise<void> = Promise.resolve();

function publisher(req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://pub.test');
  const param = (name: string) => url.searchParams.get(name) ?? '';
  switch (url.pathname) {
    case '/echo':
      void echo(req, res);
      return;
    case '/sized':
      res.setHeader('content-length', param('n'));
      res.end(Buffer.alloc(Number(param('n')), 'b'));
      return;
    case '/endless': {
      // Chunked, no Content-Length, never ends on its own: only the size cap can stop it.
      streamAbandoned = new Promise((resolve) => res.on('close', () => resolve()));
      res.writeHead(200, { 'content-type': 'text/plain' });
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    case '/huge-declared':
      // Promises 10 MiB but sends only a little, so waiting for the body would end in a timeout.
      res.writeHead(200, { 'content-length': String(10 * 1024 * 1024) });
      res.write(chunk.subarray(0, 1024));
      return;
    case '/silent':
      return;
    case '/stalled-body':
      res.writeHead(200, { 'content-length': '100' });
      res.write('partial');
      return;
    case '/redirect':
      res.writeHead(Number(param('status') || '302'), url.searchParams.has('to') ? { location: param('to') } : {});
      res.end('moved');
      return;
    case '/loop':
      res.writeHead(302, { location: '/loop' });
      res.end();
      return;
    default: {
      const hops = /^\/chain\/(\d+)$/.exec(url.pathname);
      if (hops) {
        const left = Number(hops[1]);
        if (left === 0) res.end('arrived');
        else res.writeHead(301, { location: `/chain/${left - 1}` }).end();
        return;
      }
      res.writeHead(404).end();
    }
  }
}

describe('SafeFetch with an allow list', () => {
  let pub: LocalServer;
  let cdn: LocalServer;
  let outsider: LocalServer;
  let deadPort: number;
  let client: SafeFetch;

  before(async () => {
    pub = await startLocalServer(publisher);
    cdn = await startLocalServer((req, res) => void echo(req, res));
    outsider = await startLocalServer((_req, res) => res.end('should not be reached'));
    const dead = await startLocalServer(() => {});
    deadPort = dead.port;
    await dead.close();
    client = new SafeFetch({
      resolver: staticResolver({ 'named.test': ['127.0.0.1'] }),
      allow: parseAllowList(
        `pub.test=127.0.0.1:${pub.port},cdn.test=127.0.0.1:${cdn.port},named.test:${pub.port},dead.test=127.0.0.1:${deadPort}`,
      ),
      timeoutMs: 5000,
    });
  });
  after(async () => {
    await client.close();
    await Promise.all([pub.close(), cdn.close(), outsider.close()]);
  });

  it('fetches a mapped name, keeping its Host and sending the default user agent', async () => {
    const res = await client.fetch('http://pub.test/echo?x=1');
    assert.equal(res.status, 200);
    assert.equal(res.url, 'http://pub.test/echo?x=1');
    assert.equal(res.headers['content-type'], 'application/json');
    const sent = res.json() as { method: string; url: string; headers: Record<string, string> };
    assert.equal(sent.method, 'GET');
    assert.equal(sent.url, '/echo?x=1');
    assert.equal(sent.headers.host, 'pub.test');
    assert.match(sent.headers['user-agent'] ?? '', /^ap-registry\/\d+\.\d+\.\d+/);
    assert.equal(sent.headers['accept-encoding'], undefined);
  });

  it('reaches a mapped name on whatever port the URL names', async () => {
    const res = await client.fetch('http://pub.test:8443/echo');
    assert.equal((res.json() as { headers: Record<string, string> }).headers.host, 'pub.test:8443');
  });

  it('lets a host:port entry reach a non-public address, through the resolver', async () => {
    const res = await client.fetch(`http://named.test:${pub.port}/echo`);
    assert.equal(res.status, 200);
  });

  it('resolves once per connection and connects to the address it checked', async () => {
    // A rebinding resolver: a second lookup would answer differently (127.0.0.2, where nothing listens).
    const answers = [['127.0.0.1'], ['127.0.0.2']];
    const lookups: string[] = [];
    const flipping = new SafeFetch({
      resolver: async (hostname) => {
        lookups.push(hostname);
        return answers.shift() ?? [];
      },
      allow: parseAllowList(`flip.test:${pub.port}`),
    });
    const log = recordConnectionAttempts();
    try {
      assert.equal((await flipping.fetch(`http://flip.test:${pub.port}/echo`)).status, 200);
    } finally {
      log.stop();
      await flipping.close();
    }
    assert.deepEqual(lookups, ['flip.test']);
    assert.deepEqual(log.attempts, [`127.0.0.1 ${pub.port}`]);
  });

  it('tries the next checked address when one refuses the connection', async () => {
    const fallback = new SafeFetch({
      resolver: staticResolver({ 'two.test': ['127.0.0.2', '127.0.0.1'] }),
      allow: parseAllowList(`two.test:${pub.port}`),
    });
    const log = recordConnectionAttempts();
    try {
      assert.equal((await fallback.fetch(`http://two.test:${pub.port}/echo`)).status, 200);
    } finally {
      log.stop();
      await fallback.close();
    }
    assert.deepEqual(log.attempts, [`127.0.0.2 ${pub.port}`, `127.0.0.1 ${pub.port}`]);
  });

  it('sends the method, headers and body it is given', async () => {
    const res = await client.fetch('http://pub.test/echo', {
      method: 'post',
      headers: { 'Content-Type': 'application/json', 'User-Agent': 'custom/1' },
      body: '{"a":1}',
    });
    const sent = res.json() as { method: string; body: string; headers: Record<string, string> };
    assert.equal(sent.method, 'POST');
    assert.equal(sent.body, '{"a":1}');
    assert.equal(sent.headers['content-type'], 'application/json');
    assert.equal(sent.headers['user-agent'], 'custom/1');
  });

  it('returns error statuses as responses', async () => {
    const res = await client.fetch('http://pub.test/nothing-here');
    assert.equal(res.status, 404);
    assert.equal(res.body.length, 0);
  });

  it('decodes text without a byte-order mark', async () => {
    const bomServer = await startLocalServer((_req, res) =>
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"ok":true}')])),
    );
    const bomClient = new SafeFetch({ allow: parseAllowList(`bom.test=127.0.0.1:${bomServer.port}`) });
    try {
      assert.deepEqual((await bomClient.fetch('http://bom.test/')).json(), { ok: true });
    } finally {
      await bomClient.close();
      await bomServer.close();
    }
  });

  describe('size cap', () => {
    it('accepts a body of exactly the cap', async () => {
      const res = await client.fetch('http://pub.test/sized?n=1000', { maxBytes: 1000 });
      assert.equal(res.body.length, 1000);
    });

    it('refuses a declared Content-Length over the cap before reading the body', async () => {
      await assert.rejects(
        client.fetch('http://pub.test/sized?n=1001', { maxBytes: 1000 }),
        refusal('too_large', { host: 'pub.test' }),
      );
      await assert.rejects(client.fetch('http://pub.test/huge-declared'), refusal('too_large'));
    });

    it('stops reading a body without Content-Length as soon as it passes the cap', async () => {
      await assert.rejects(client.fetch('http://pub.test/endless', { maxBytes: 200_000 }), refusal('too_large'));
      await streamAbandoned;
    });

    it('caps at 1 MiB by default', async () => {
      await assert.rejects(client.fetch(`http://pub.test/sized?n=${1024 * 1024 + 1}`), refusal('too_large'));
      assert.equal((await client.fetch(`http://pub.test/sized?n=${1024 * 1024}`)).body.length, 1024 * 1024);
    });
  });

  describe('timeout', () => {
    it('gives up on a server that never answers', async () => {
      const started = Date.now();
      await assert.rejects(
        client.fetch('http://pub.test/silent', { timeoutMs: 300 }),
        refusal('timeout', { host: 'pub.test' }),
      );
      assert.ok(Date.now() - started < 3000);
    });

    it('counts the time spent reading the body', async () => {
      await assert.rejects(client.fetch('http://pub.test/stalled-body', { timeoutMs: 300 }), refusal('timeout'));
    });

    it('takes its default from the client', async () => {
      const impatient = new SafeFetch({ allow: parseAllowList(`pub.test=127.0.0.1:${pub.port}`), timeoutMs: 300 });
      try {
        await assert.rejects(impatient.fetch('http://pub.test/silent'), refusal('timeout'));
      } finally {
        await impatient.close();
      }
    });
  });

  describe('redirects', () => {
    it('follows relative redirects and reports the final URL', async () => {
      const res = await client.fetch('http://pub.test/chain/3');
      assert.equal(res.status, 200);
      assert.equal(res.text(), 'arrived');
      assert.equal(res.url, 'http://pub.test/chain/0');
    });

    it('follows at most maxRedirects', async () => {
      assert.equal((await client.fetch('http://pub.test/chain/5')).text(), 'arrived');
      await assert.rejects(client.fetch('http://pub.test/chain/6'), refusal('too_many_redirects'));
      await assert.rejects(client.fetch('http://pub.test/loop'), refusal('too_many_redirects'));
      const strict = new SafeFetch({ allow: parseAllowList(`pub.test=127.0.0.1:${pub.port}`), maxRedirects: 1 });
      try {
        await assert.rejects(strict.fetch('http://pub.test/chain/2'), refusal('too_many_redirects'));
      } finally {
        await strict.close();
      }
    });

    it("refuses every redirect with redirect: 'error'", async () => {
      const before = cdn.requests.length;
      const to = encodeURIComponent('http://cdn.test/echo');
      await assert.rejects(
        client.fetch(`http://pub.test/redirect?to=${to}`, { redirect: 'error' }),
        refusal('redirect_refused'),
      );
      assert.equal(cdn.requests.length, before);
    });

    it('turns a POST into a GET without body on 303, and on 302 as browsers do', async () => {
      for (const status of [303, 302]) {
        const res = await client.fetch(`http://pub.test/redirect?status=${status}&to=/echo`, {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'payload',
        });
        const sent = res.json() as { method: string; body: string; headers: Record<string, string> };
        assert.equal(sent.method, 'GET', String(status));
        assert.equal(sent.body, '');
        assert.equal(sent.headers['content-type'], undefined);
      }
    });

    it('keeps method and body on 307 and 308', async () => {
      for (const status of [307, 308]) {
        const res = await client.fetch(`http://pub.test/redirect?status=${status}&to=/echo`, {
          method: 'PUT',
          body: 'payload',
        });
        const sent = res.json() as { method: string; body: string };
        assert.deepEqual([sent.method, sent.body], ['PUT', 'payload'], String(status));
      }
    });

    it('drops credentials when a redirect leaves the origin', async () => {
      const headers = { authorization: 'Bearer secret', cookie: 'a=b', 'x-kept': 'yes' };
      const same = (await client.fetch('http://pub.test/redirect?to=/echo', { headers })).json() as {
        headers: Record<string, string>;
      };
      assert.equal(same.headers.authorization, 'Bearer secret');
      const to = encodeURIComponent('http://cdn.test/echo');
      const other = (await client.fetch(`http://pub.test/redirect?to=${to}`, { headers })).json() as {
        headers: Record<string, string>;
      };
      assert.equal(other.headers.authorization, undefined);
      assert.equal(other.headers.cookie, undefined);
      assert.equal(other.headers['x-kept'], 'yes');
    });

    it('checks every hop: a redirect to a loopback port not on the list is refused unconnected', async () => {
      const to = encodeURIComponent(`http://127.0.0.1:${outsider.port}/`);
      await assert.rejects(
        client.fetch(`http://pub.test/redirect?to=${to}`),
        refusal('forbidden_address', { host: '127.0.0.1', range: 'loopback' }),
      );
      const viaName = encodeURIComponent(`http://localhost:${outsider.port}/`);
      await assert.rejects(
        client.fetch(`http://pub.test/redirect?to=${viaName}`),
        refusal('dns_failure', { host: 'localhost' }),
      );
      assert.equal(outsider.requests.length, 0);
    });

    it('checks scheme, credentials and syntax of every hop', async () => {
      const cases: Array<[string, FetchErrorReason]> = [
        ['file:///etc/passwd', 'unsupported_scheme'],
        ['ftp://pub.test/', 'unsupported_scheme'],
        ['http://user:pw@cdn.test/echo', 'credentials_in_url'],
        ['http://[::1/', 'invalid_url'],
      ];
      for (const [to, reason] of cases) {
        await assert.rejects(
          client.fetch(`http://pub.test/redirect?to=${encodeURIComponent(to)}`),
          refusal(reason),
          to,
        );
      }
    });

    it('returns a redirect without Location as it is', async () => {
      const res = await client.fetch('http://pub.test/redirect?status=302');
      assert.equal(res.status, 302);
    });
  });

  describe('refuses before connecting', () => {
    const cases: Array<[string, FetchErrorReason]> = [
      ['ftp://pub.test/file', 'unsupported_scheme'],
      ['file:///etc/passwd', 'unsupported_scheme'],
      ['javascript:alert(1)', 'unsupported_scheme'],
      ['data:,hello', 'unsupported_scheme'],
      ['http://user:pass@pub.test/echo', 'credentials_in_url'],
      ['http://user@pub.test/echo', 'credentials_in_url'],
      ['not a url', 'invalid_url'],
      ['', 'invalid_url'],
      ['http://', 'invalid_url'],
      ['http://[::1/', 'invalid_url'],
      ['/relative/path', 'invalid_url'],
    ];
    for (const [url, reason] of cases) {
      it(`${JSON.stringify(url)}: ${reason}`, async () => {
        const before = pub.requests.length;
        await assert.rejects(client.fetch(url), refusal(reason));
        assert.equal(pub.requests.length, before);
      });
    }

    it('does not echo credentials in the message', async () => {
      await assert.rejects(
        client.fetch('http://user:hunter2@pub.test/'),
        (error: Error) => !error.message.includes('hunter2'),
      );
    });
  });

  it('reports names that do not resolve', async () => {
    await assert.rejects(client.fetch('http://unknown.test/'), refusal('dns_failure', { host: 'unknown.test' }));
  });

  it('reports a refused connection', async () => {
    await assert.rejects(client.fetch('http://dead.test/'), refusal('connection_failed', { host: 'dead.test' }));
  });
});

describe('SafeFetch over TLS to a mapped name', () => {
  const fixture = (name: string) => readFileSync(new URL(`fixtures/${name}`, import.meta.url));
  let server: LocalServer;
  let client: SafeFetch;

  before(async () => {
    server = await startLocalServer((req, res) => res.end(`tls ${req.headers.host}`), {
      tls: { key: fixture('pub.test.key'), cert: fixture('pub.test.crt') },
    });
  });
  after(() => server.close());

  it('verifies the certificate against the requested name, not the address', async () => {
    client = new SafeFetch({
      allow: parseAllowList(`pub.test=127.0.0.1:${server.port},other.test=127.0.0.1:${server.port}`),
      ca: fixture('pub.test.crt'),
    });
    try {
      assert.equal((await client.fetch('https://pub.test/')).text(), 'tls pub.test');
      await assert.rejects(client.fetch('https://other.test/'), refusal('connection_failed'));
    } finally {
      await client.close();
    }
  });

  it('trusts only the system roots by default', async () => {
    client = new SafeFetch({ allow: parseAllowList(`pub.test=127.0.0.1:${server.port}`) });
    try {
      await assert.rejects(client.fetch('https://pub.test/'), refusal('connection_failed'));
    } finally {
      await client.close();
    }
  });
});
