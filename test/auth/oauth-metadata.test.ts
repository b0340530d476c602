import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { json, type Json } from '../support/http.ts';
import { REDIRECT_URI } from '../support/identity.ts';
import { postJson } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { serverSigningKey } from './helpers.ts';

/** Discovery: dynamic client registration (RFC 7591) and the metadata documents (RFC 8414, RFC 9728). */
eachEngine('OAuth discovery and registration', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  const register = (metadata: Json) => postJson(`${server.url}/register`, metadata, {});

  describe('dynamic client registration at /register', () => {
    it('answers 201 with a client_id for a public client', async () => {
      const res = await register({
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        client_name: 'An MCP client',
      });
      assert.equal(res.status, 201);
      const client = await json(res);
      assert.equal(typeof client.client_id, 'string');
      assert.ok(client.client_id.length > 0);
      assert.deepEqual(client.redirect_uris, [REDIRECT_URI]);
      assert.equal(client.token_endpoint_auth_method, 'none');
      assert.equal(client.client_secret, undefined, 'a public client gets no secret');
      assert.deepEqual(client.response_types, ['code']);
    });

    it('refuses a client without redirect_uris', async () => {
      const res = await register({ token_endpoint_auth_method: 'none' });
      assert.equal(res.status, 400);
      assert.match((await json(res)).error, /^invalid_(client_metadata|redirect_uri)$/);
    });

    it('refuses a client asking for the implicit flow', async () => {
      const res = await register({
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        response_types: ['id_token'],
        grant_types: ['implicit'],
      });
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'invalid_client_metadata');
    });

    it('registers a client that names no token_endpoint_auth_method as client_secret_basic (RFC 7591), with the secret it then needs', async () => {
      const res = await register({ redirect_uris: [REDIRECT_URI] });
      assert.equal(res.status, 201);
      const client = await json(res);
      assert.equal(client.token_endpoint_auth_method, 'client_secret_basic');
      assert.equal(typeof client.client_secret, 'string');
    });

    it('answers another method on /register with the catalogue’s 404, not plain text', async () => {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const res = await fetch(`${server.url}/register`, { method });
        assert.equal(res.status, 404, method);
        assert.match(res.headers.get('content-type') ?? '', /^application\/json/, method);
        assert.equal((await json(res)).error, 'route_not_found', method);
      }
    });

    it('refuses a NUL character in client metadata with 400 invalid_client_metadata, storing nothing', async () => {
      const clients = async () =>
        (await server.db.query(`select count(*)::int as n from oauth_records where model = 'Client'`))[0]!.n as number;
      const before = await clients();
      const res = await register({
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        client_name: 'A\u0000B',
      });
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'invalid_client_metadata');
      assert.equal(await clients(), before);
    });
  });

  describe('authorization server metadata (RFC 8414)', () => {
    let metadata: Json;
    before(async () => {
      const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
      assert.equal(res.status, 200);
      metadata = await json(res);
    });

    it('names this server as issuer and its endpoints', () => {
      assert.equal(metadata.issuer, server.url);
      assert.equal(metadata.authorization_endpoint, `${server.url}/authorize`);
      assert.equal(metadata.token_endpoint, `${server.url}/token`);
      assert.equal(metadata.registration_endpoint, `${server.url}/register`);
      assert.equal(metadata.jwks_uri, `${server.url}/jwks`);
    });

    it('offers PKCE with S256 only, and only the authorization-code flow', () => {
      assert.deepEqual(metadata.code_challenge_methods_supported, ['S256']);
      assert.deepEqual(metadata.response_types_supported, ['code']);
      assert.ok(!metadata.grant_types_supported.includes('implicit'), String(metadata.grant_types_supported));
      assert.ok(metadata.scopes_supported.includes('ap'));
    });

    it('is the OpenID discovery document too', async () => {
      assert.deepEqual(await json(await fetch(`${server.url}/.well-known/openid-configuration`)), metadata);
    });

    it('advertises only endpoints this server mounts', () => {
      const mounted = new Set(server.app.routeTable.map((r) => `${r.method} ${r.url}`));
      const advertised = Object.entries(metadata).filter(([name]) => name.endsWith('_endpoint') || name === 'jwks_uri');
      assert.ok(advertised.length >= 4);
      for (const [name, url] of advertised) {
        assert.ok(String(url).startsWith(`${server.url}/`), `${name}: ${url}`);
        const path = new URL(String(url)).pathname;
        assert.ok(
          mounted.has(`GET ${path}`) || mounted.has(`POST ${path}`),
          `${name} (${path}) is not a route of the server`,
        );
      }
    });

    it('publishes the public half of the key in identity_secrets', async () => {
      const jwks = await json(await fetch(metadata.jwks_uri));
      const key = await serverSigningKey(server.db);
      assert.equal(jwks.keys.length, 1);
      assert.equal(jwks.keys[0].kid, key.kid);
      assert.equal(jwks.keys[0].x, key.x);
      assert.equal(jwks.keys[0].d, undefined, 'no private part');
    });
  });

  describe('protected resource metadata (RFC 9728)', () => {
    for (const name of ['api', 'mcp']) {
      it(`describes ${name} with this server as its authorization server`, async () => {
        const res = await fetch(`${server.url}/.well-known/oauth-protected-resource/${name}`);
        assert.equal(res.status, 200);
        const body = await json(res);
        assert.equal(body.resource, `${server.url}/${name}`);
        assert.deepEqual(body.authorization_servers, [server.url]);
        assert.deepEqual(body.bearer_methods_supported, ['header']);
      });
    }

    it('is where a 401 of a protected route points', async () => {
      const res = await postJson(
        `${server.url}/api/brands/save`,
        { domain: 'challenge.example', brand_name: 'Challenge' },
        {},
      );
      assert.equal(res.status, 401);
      assert.equal((await json(res)).error, 'unauthorized');
      const challenge = res.headers.get('www-authenticate') ?? '';
      assert.match(challenge, /^Bearer /);
      const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)?.[1];
      assert.equal(metadataUrl, `${server.url}/.well-known/oauth-protected-resource/api`);
      const metadata = await json(await fetch(metadataUrl!));
      assert.deepEqual(metadata.authorization_servers, [server.url]);
    });
  });
});
