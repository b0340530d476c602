import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import type { Resolver } from '../../../src/net/resolver.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import {
  recordConnectionAttempts,
  startLocalServer,
  type ConnectionLog,
  type LocalServer,
} from '../../net/local-servers.ts';
import { eachEngine } from '../../support/engines.ts';
import { hostileNames, hostileUrls } from '../../support/hostile-targets.ts';
import { json, type Json } from '../../support/http.ts';
import {
  authorizeWith,
  pkce,
  REDIRECT_URI,
  seedOrganization,
  seedUser,
  type SeededUser,
} from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { nowSeconds, signJwt, tokenRequest } from '../helpers.ts';

const fixture = (name: string) => readFileSync(new URL(`../../net/fixtures/${name}`, import.meta.url));
const tls = { key: fixture('pub.test.key'), cert: fixture('pub.test.crt') };
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
// A public address for names the tests register; nothing is ever fetched from it.
const PUBLIC_ADDRESS = '93.184.215.14';

/** A client that authenticates at the token endpoint with a JWT signed by its own key (RFC 7523). */
const keyClient = {
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: 'private_key_jwt',
  token_endpoint_auth_signing_alg: 'ES256',
  grant_types: ['authorization_code'],
  response_types: ['code'],
};
const publicClient = {
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: 'none',
  grant_types: ['authorization_code'],
  response_types: ['code'],
};

function register(base: string, metadata: Record<string, unknown>): Promise<Response> {
  return fetch(`${base}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
}

interface ClientKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

async function clientKey(): Promise<ClientKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = randomUUID();
  return {
    kid,
    privateJwk: await exportJWK(privateKey),
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' },
  };
}

function assertion(base: string, clientId: string, key: ClientKey): Promise<string> {
  const now = nowSeconds();
  return signJwt(
    { iss: clientId, sub: clientId, aud: `${base}/token`, jti: randomUUID(), iat: now, exp: now + 60 },
    { alg: 'ES256', kid: key.kid },
    key.privateJwk,
  );
}

/** A code exchange authenticated by `clientId`'s key: the provider reads the client's jwks_uri to check it. */
async function authenticatedExchange(
  base: string,
  clientId: string,
  key: ClientKey,
  code = 'no-such-code',
  verifier = pkce().verifier,
): Promise<Response> {
  return tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: REDIRECT_URI,
    code_verifier: verifier,
    client_id: clientId,
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: await assertion(base, clientId, key),
  });
}

function assertRefusedMetadata(status: number, body: Json, description: RegExp, label: string): void {
  assert.equal(status, 400, `${label}: ${JSON.stringify(body)}`);
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description'], label);
  assert.equal(body.error, 'invalid_client_metadata', label);
  assert.match(body.error_description, description, label);
}

/**
 * The URLs a client registers that the authorization server itself fetches (jwks_uri for
 * private_key_jwt, sector_identifier_uri) are refused unless https on a public host, and every
 * fetch goes through the SSRF-safe client: loopback servers here record what reached them.
 */
eachEngine('OAuth client URLs the authorization server fetches', (engine) => {
  const names = new Map<string, string[]>();
  const lookups: string[] = [];
  const resolver: Resolver = async (hostname) => {
    lookups.push(hostname);
    const addresses = names.get(hostname);
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses;
  };
  let key: ClientKey;
  let keys: LocalServer;
  let trap: LocalServer;
  let fetcher: SafeFetch;
  let server: TestServer;
  let alice: SeededUser;
  let connections: ConnectionLog;

  before(async () => {
    key = await clientKey();
    const jwks = { keys: [key.publicJwk] };
    // pub.test: a host the fetch allow list names, as a deployment's AP_FETCH_ALLOW would.
    keys = await startLocalServer(
      (req, res) => {
        const url = new URL(req.url ?? '/', 'https://pub.test');
        if (url.pathname === '/jwks') return sendJson(res, jwks);
        if (url.pathname === '/redirect')
          return void res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
        // The right key, but 100 KiB in all: only the size cap stands between it and a token.
        if (url.pathname === '/huge') return sendJson(res, { ...jwks, padding: 'x'.repeat(100 * 1024) });
        // Never answers: only the time cap ends the fetch.
        if (url.pathname === '/silent') return;
        res.writeHead(404).end();
      },
      { tls },
    );
    // The private server a moved name or a redirect leads to; the hostile URLs name its port too.
    // Nothing may reach it, nor connect to that port anywhere (checked after each test).
    trap = await startLocalServer((_req, res) => sendJson(res, jwks), { host: '127.0.0.2', tls });
    for (const [name, addresses] of Object.entries(hostileNames)) names.set(name, addresses);
    names.set('localhost', ['127.0.0.1', '::1']);
    names.set('public.test', [PUBLIC_ADDRESS]);
    fetcher = new SafeFetch({
      resolver,
      allow: parseAllowList(`pub.test=127.0.0.1:${keys.port}`),
      ca: tls.cert,
      timeoutMs: 5000,
    });
    server = await startTestServer(engine, { deps: { fetcher } });
    const org = await seedOrganization(server.db);
    alice = await seedUser(server.db, { organization: org.slug });
  });
  after(async () => {
    await server.close();
    await fetcher.close();
    await Promise.all([keys.close(), trap.close()]);
  });
  beforeEach(() => {
    connections = recordConnectionAttempts();
  });
  afterEach(() => {
    connections.stop();
    assert.equal(trap.requests.length, 0, 'the trap saw a request');
    assert.deepEqual(
      connections.attempts.filter((a) => a.startsWith('127.0.0.2 ') || a.endsWith(` ${trap.port}`)),
      [],
      'something connected to the trap',
    );
  });

  const storedClients = async () =>
    (await server.db.query(`select id from oauth_records where model = 'Client'`)).length;

  describe('registration', () => {
    const fields: Array<[string, Record<string, unknown>]> = [
      ['jwks_uri', keyClient],
      ['sector_identifier_uri', publicClient],
    ];
    for (const [field, base] of fields) {
      it(`refuses a ${field} on a loopback, private or link-local host, in every form, with the RFC 7591 error`, async () => {
        const before = await storedClients();
        for (const [url, range] of hostileUrls('https', { v4: trap.port })) {
          const res = await register(server.url, { ...base, [field]: url.replace(/\/$/, '/jwks') });
          assertRefusedMetadata(
            res.status,
            await json(res),
            new RegExp(`^${field} must be on a public host: .+ is not a public address$`),
            `${url} (${range})`,
          );
        }
        assert.equal(await storedClients(), before, 'nothing was stored');
      });

      it(`refuses a ${field} that is not https, or carries credentials`, async () => {
        const cases: Array<[string, string]> = [
          ['http://public.test/jwks', 'must be an https URL'],
          ['ftp://public.test/jwks', 'must be an https URL'],
          [`http://pub.test:${keys.port}/jwks`, 'must be an https URL'],
          ['https://user:secret@public.test/jwks', 'must not carry credentials'],
        ];
        for (const [url, why] of cases) {
          const res = await register(server.url, { ...base, [field]: url });
          assertRefusedMetadata(res.status, await json(res), new RegExp(`^${field} ${why}$`), url);
        }
      });

      it(`refuses a ${field} whose host does not resolve`, async () => {
        const res = await register(server.url, { ...base, [field]: 'https://nowhere.test/jwks' });
        assertRefusedMetadata(
          res.status,
          await json(res),
          new RegExp(`^${field} must be on a public host: nowhere.test does not resolve$`),
          'nowhere.test',
        );
      });

      it(`accepts a ${field} on a public host without fetching it`, async () => {
        const res = await register(server.url, { ...base, [field]: 'https://public.test/keys' });
        assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
        assert.equal((await json(res))[field], 'https://public.test/keys');
      });
    }

    it('never fetches a sector_identifier_uri: this server issues no pairwise subjects', async () => {
      const before = keys.requests.length;
      const res = await register(server.url, { ...publicClient, sector_identifier_uri: 'https://pub.test/sector' });
      assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
      assert.equal(keys.requests.length, before);
    });

    it('leaves loopback redirect_uris alone: native clients receive codes there (RFC 8252)', async () => {
      const res = await register(server.url, {
        ...publicClient,
        redirect_uris: ['http://127.0.0.1:3390/cb', 'http://[::1]:3390/cb', 'http://localhost:3390/cb'],
      });
      assert.equal(res.status, 201, JSON.stringify(await json(res.clone())));
    });

    it('offers no way to change a registered client: registration management is off', async () => {
      const res = await register(server.url, publicClient);
      const { client_id: clientId } = await json(res);
      const update = await fetch(`${server.url}/register/${clientId}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...publicClient, client_id: clientId, jwks_uri: 'https://127.0.0.1/' }),
      });
      assert.equal(update.status, 404);
    });
  });

  describe('private_key_jwt with a jwks_uri', () => {
    it('fetches the keys from an allow-listed host through the safe client, and the whole flow works', async () => {
      const before = keys.requests.length;
      const registered = await register(server.url, { ...keyClient, jwks_uri: 'https://pub.test/jwks' });
      assert.equal(registered.status, 201, JSON.stringify(await json(registered.clone())));
      const { client_id: clientId } = await json(registered);
      const { verifier, challenge } = pkce();
      const back = await authorizeWith(
        server.url,
        clientId,
        { scope: 'ap', code_challenge: challenge, code_challenge_method: 'S256' },
        alice,
      );
      const code = back.searchParams.get('code');
      assert.ok(code, back.href);
      const res = await authenticatedExchange(server.url, clientId, key, code, verifier);
      const body = await json(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(typeof body.access_token, 'string');
      // pub.test exists only in the safe client's allow list: no other fetch could have reached it.
      assert.deepEqual(
        keys.requests.slice(before).map((r) => [r.url, r.headers.host]),
        [['/jwks', 'pub.test']],
      );
    });

    it('does not connect when the registered name later resolves to a private address, and answers invalid_client', async () => {
      names.set('rebind.test', [PUBLIC_ADDRESS]);
      const registered = await register(server.url, {
        ...keyClient,
        jwks_uri: `https://rebind.test:${trap.port}/jwks`,
      });
      assert.equal(registered.status, 201, JSON.stringify(await json(registered.clone())));
      const { client_id: clientId } = await json(registered);
      names.set('rebind.test', [trap.host]);
      lookups.length = 0;
      const res = await authenticatedExchange(server.url, clientId, key);
      const body = await json(res);
      assert.equal(res.status, 401, JSON.stringify(body));
      assert.equal(body.error, 'invalid_client');
      // The safe client asked the policy's resolver, heard a private address and went no further.
      assert.deepEqual(lookups, ['rebind.test']);
    });

    it('refuses a client stored with a private jwks_uri (before these checks) when it is loaded, unfetched', async () => {
      const registered = await register(server.url, { ...keyClient, jwks_uri: 'https://public.test/jwks' });
      const { client_id: clientId } = await json(registered);
      const stored = JSON.stringify(`https://${trap.host}:${trap.port}/jwks`);
      await server.db.query(
        `update oauth_records set payload = jsonb_set(payload, '{jwks_uri}', $2::jsonb) where model = 'Client' and id = $1`,
        [clientId, stored],
      );
      const res = await authenticatedExchange(server.url, clientId, key);
      const body = await json(res);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(body.error, 'invalid_client_metadata');
    });

    it('refuses a redirect from the allowed host to a private target, and answers invalid_client', async () => {
      for (const target of [
        `https://${trap.host}:${trap.port}/jwks`,
        `https://loopback.test:${trap.port}/jwks`,
        'https://169.254.169.254/latest/meta-data',
      ]) {
        const before = keys.requests.length;
        const registered = await register(server.url, {
          ...keyClient,
          jwks_uri: `https://pub.test/redirect?to=${encodeURIComponent(target)}`,
        });
        assert.equal(registered.status, 201, JSON.stringify(await json(registered.clone())));
        const { client_id: clientId } = await json(registered);
        const res = await authenticatedExchange(server.url, clientId, key);
        const body = await json(res);
        assert.equal(res.status, 401, `${target}: ${JSON.stringify(body)}`);
        assert.equal(body.error, 'invalid_client');
        assert.deepEqual(
          keys.requests.slice(before).map((r) => new URL(r.url ?? '/', 'https://pub.test').pathname),
          ['/redirect'],
          target,
        );
      }
    });

    it(
      'gives up on a key set that does not come within the time cap, and answers invalid_client',
      { timeout: 15_000 },
      async () => {
        const registered = await register(server.url, { ...keyClient, jwks_uri: 'https://pub.test/silent' });
        const { client_id: clientId } = await json(registered);
        const res = await authenticatedExchange(server.url, clientId, key);
        assert.equal(res.status, 401);
        assert.equal((await json(res)).error, 'invalid_client');
      },
    );

    it('stops reading a key set past the size cap, and answers invalid_client', async () => {
      const registered = await register(server.url, { ...keyClient, jwks_uri: 'https://pub.test/huge' });
      const { client_id: clientId } = await json(registered);
      const res = await authenticatedExchange(server.url, clientId, key);
      assert.equal(res.status, 401);
      assert.equal((await json(res)).error, 'invalid_client');
    });
  });
});

function sendJson(res: ServerResponse, body: unknown): void {
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify(body));
}
