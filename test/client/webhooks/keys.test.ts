import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { sellerKeys } from '../../../src/client/webhooks/keys.ts';
import { systemClock } from '../../../src/clock.ts';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import type { WebhookJwk } from '../../../src/signing/index.ts';

const publicJwk = (kid: string): WebhookJwk =>
  ({
    ...generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' }),
    kid,
    use: 'sig',
    key_ops: ['verify'],
    ap_use: 'webhook-signing',
  }) as WebhookJwk;

describe('resolving a seller’s webhook keys', () => {
  let server: http.Server;
  let base = '';
  let fetcher: SafeFetch;
  let status = 200;
  const sales = publicJwk('sales-1');
  const other = publicJwk('other-1');

  before(async () => {
    server = http.createServer((req, res) => {
      if (status !== 200) return void res.writeHead(status).end();
      const documents: Record<string, unknown> = {
        '/.well-known/brand.json': {
          agents: [
            { type: 'sales', url: `${base}/sales/mcp`, jwks_uri: `${base}/sales-jwks.json` },
            { type: 'signals', url: `${base}/signals/mcp`, jwks_uri: `${base}/signals-jwks.json` },
          ],
        },
        '/sales-jwks.json': { keys: [sales] },
        '/signals-jwks.json': { keys: [other] },
      };
      const body = documents[req.url ?? ''];
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    fetcher = new SafeFetch({ allow: parseAllowList(new URL(base).host) });
  });
  after(async () => {
    await fetcher.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const resolver = (extra: { agentUrl?: string; pinnedKeys?: WebhookJwk[] } = {}) =>
    sellerKeys({ fetcher, clock: systemClock, brandJsonUrl: `${base}/.well-known/brand.json`, ...extra });

  it('follows brand.json agents[].jwks_uri to the key with the keyid', async () => {
    assert.equal((await resolver()('sales-1'))?.x, sales.x);
    assert.equal(await resolver()('nobody'), undefined);
  });

  it('looks only at the named agent’s JWKS when given its URL', async () => {
    const resolve = resolver({ agentUrl: `${base}/sales/mcp` });
    assert.equal((await resolve('sales-1'))?.kid, 'sales-1');
    assert.equal(await resolve('other-1'), undefined);
  });

  it('honours a publisher pin: a key the JWKS lists but the pin does not is refused', async () => {
    assert.equal((await resolver({ pinnedKeys: [sales] })('sales-1'))?.kid, 'sales-1');
    assert.equal(await resolver({ pinnedKeys: [other] })('sales-1'), undefined);
    assert.equal(
      await resolver({ pinnedKeys: [{ ...sales, x: other.x }] })('sales-1'),
      undefined,
      'same kid, other key material',
    );
  });

  it('fails (so the sender retries) rather than refusing when the seller cannot be read', async () => {
    status = 503;
    try {
      await assert.rejects(resolver()('sales-1'), /HTTP 503/);
    } finally {
      status = 200;
    }
  });
});
