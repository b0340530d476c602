import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload } from 'jose';
import { addMember } from '../../src/auth/accounts/service.ts';
import { userBySubject } from '../../src/auth/accounts/sql.ts';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { bearer, seedOrganization } from '../support/identity.ts';
import { postJson } from '../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../support/server.ts';
import { nowSeconds, callProtected, signJwt, summary } from './helpers.ts';

/** An identity provider elsewhere: a JWKS on loopback, its key made here. */
interface Issuer {
  url: string;
  key: JWK;
  /** Paths requested so far. */
  seen: string[];
  /** While set, the JWKS answers this status instead of the keys. */
  failWith: number | undefined;
  close(): Promise<void>;
}

async function startIssuer(): Promise<Issuer> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const key = { ...(await exportJWK(privateKey)), kid: randomUUID(), alg: 'ES256', use: 'sig' };
  const { d: _d, ...publicKey } = key;
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url !== '/jwks') return void res.writeHead(404).end();
    if (issuer.failWith) return void res.writeHead(issuer.failWith).end();
    res.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify({ keys: [publicKey] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const issuer: Issuer = {
    url: `http://127.0.0.1:${port}`,
    key,
    seen,
    failWith: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return issuer;
}

eachEngine('external issuer (AP_OAUTH_ISSUER)', (engine) => {
  let issuer: Issuer;
  let server: TestServer;
  before(async () => {
    issuer = await startIssuer();
    const port = new URL(issuer.url).port;
    server = await startTestServer(engine, {
      env: {
        AP_OAUTH_ISSUER: issuer.url,
        AP_OAUTH_JWKS_URL: `${issuer.url}/jwks`,
        AP_FETCH_ALLOW: `127.0.0.1:${port}`,
      },
    });
  });
  after(async () => {
    await server.close();
    await issuer.close();
  });

  const token = (claims: JWTPayload = {}, key: JWK = issuer.key) =>
    signJwt(
      {
        iss: issuer.url,
        aud: `${server.url}/api`,
        sub: `ext-${randomUUID()}`,
        iat: nowSeconds(),
        exp: nowSeconds() + 300,
        ...claims,
      },
      { alg: 'ES256', kid: key.kid! },
      key,
    );
  const refused = async (credential: string) => {
    const seen = await summary(await callProtected(server.url, bearer(credential)));
    assert.equal(seen.status, 401, JSON.stringify(seen));
    assert.match(seen.challenge ?? '', /error="invalid_token"/);
  };

  describe('users of the external issuer', () => {
    it('are recorded on first sight, and may save once given a membership', async () => {
      const subject = `ext-${randomUUID()}`;
      const credential = await token({ sub: subject, email: 'carol@idp.example', name: 'Carol' });

      const first = await summary(await callProtected(server.url, bearer(credential)));
      assert.equal(first.status, 403, JSON.stringify(first));
      assert.equal((first.body as { error: string }).error, 'forbidden');
      const user = await userBySubject(server.db, issuer.url, subject);
      assert.ok(user, 'the user was created on first sight');
      assert.equal(user.email, 'carol@idp.example');
      assert.equal(user.password_hash, null, 'no password here: the issuer vouches for them');
      assert.ok(issuer.seen.includes('/jwks'), 'the keys were fetched from the issuer’s JWKS');

      const org = await seedOrganization(server.db);
      await addMember(server.db, org.slug, user.id);
      const res = await callProtected(server.url, bearer(credential));
      assert.equal(res.status, 201, JSON.stringify(await summary(res)));
      // Seen again, the same user: no second row.
      const [{ n }] = (await server.db.query<{ n: number }>(
        `select count(*)::int as n from users where issuer = $1 and subject = $2`,
        [issuer.url, subject],
      )) as [{ n: number }];
      assert.equal(n, 1);
    });

    it('may use a token for the MCP resource at the REST API too', async () => {
      const subject = `ext-${randomUUID()}`;
      const credential = await token({ sub: subject, aud: `${server.url}/mcp` });
      assert.equal((await callProtected(server.url, bearer(credential))).status, 403);
      const org = await seedOrganization(server.db);
      await addMember(server.db, org.slug, (await userBySubject(server.db, issuer.url, subject))!.id);
      assert.equal((await callProtected(server.url, bearer(credential))).status, 201);
    });
  });

  describe('tokens that are refused', () => {
    it('signed by a key the issuer does not publish', async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      await refused(await token({}, { ...(await exportJWK(privateKey)), kid: issuer.key.kid }));
    });
    it('from another issuer, this server’s own included', async () => {
      await refused(await token({ iss: 'https://other-idp.example' }));
      await refused(await token({ iss: server.url }));
    });
    it('for another audience', async () => {
      await refused(await token({ aud: 'https://elsewhere.example/api' }));
    });
    it('expired', async () => {
      await refused(await token({ iat: nowSeconds() - 3600, exp: nowSeconds() - 120 }));
    });
  });

  describe('the embedded provider', () => {
    it('is not mounted', async () => {
      for (const [method, path] of [
        ['GET', '/authorize'],
        ['POST', '/register'],
        ['POST', '/token'],
        ['GET', '/jwks'],
        ['GET', '/.well-known/oauth-authorization-server'],
        ['GET', '/interaction/x'],
      ] as const) {
        const res = await fetch(`${server.url}${path}`, { method, redirect: 'manual' });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal((await json(res)).error, 'route_not_found');
      }
      assert.ok(!server.app.routeTable.some((r) => r.url === '/authorize' || r.url === '/register'));
    });

    it('is replaced by the issuer in the protected-resource metadata', async () => {
      for (const name of ['api', 'mcp']) {
        const body = await json(await fetch(`${server.url}/.well-known/oauth-protected-resource/${name}`));
        assert.equal(body.resource, `${server.url}/${name}`);
        assert.deepEqual(body.authorization_servers, [issuer.url]);
      }
      const res = await postJson(`${server.url}/api/brands/save`, {}, {});
      assert.equal(res.status, 401);
      assert.match(
        res.headers.get('www-authenticate') ?? '',
        new RegExp(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/api"`),
      );
    });

    it('leaves API keys working', async () => {
      assert.equal((await callProtected(server.url, asAdmin)).status, 201);
    });
  });

  describe('when the issuer’s keys cannot be fetched', () => {
    let down: Issuer;
    let other: TestServer;
    before(async () => {
      down = await startIssuer();
      down.failWith = 503;
      other = await startTestServer(engine, {
        env: {
          AP_OAUTH_ISSUER: down.url,
          AP_OAUTH_JWKS_URL: `${down.url}/jwks`,
          AP_FETCH_ALLOW: `127.0.0.1:${new URL(down.url).port}`,
        },
      });
    });
    after(async () => {
      await other.close();
      await down.close();
    });

    it('answers 502 upstream_unavailable, not 401 or 500, and recovers with the issuer', async () => {
      const tokenFor = (audience: string) =>
        signJwt(
          { iss: down.url, aud: `${audience}/api`, sub: `ext-${randomUUID()}`, exp: nowSeconds() + 300 },
          { alg: 'ES256', kid: down.key.kid! },
          down.key,
        );
      const credential = await tokenFor(other.url);
      const failed = await summary(await callProtected(other.url, bearer(credential)));
      assert.equal(failed.status, 502, JSON.stringify(failed));
      assert.equal((failed.body as { error: string }).error, 'upstream_unavailable');
      assert.ok(down.seen.includes('/jwks'));
      // Not reachable at all (here: no AP_FETCH_ALLOW, so the fetch policy refuses loopback): the same answer.
      down.failWith = undefined;
      const closed = await startTestServer(engine, {
        env: { AP_OAUTH_ISSUER: down.url, AP_OAUTH_JWKS_URL: `${down.url}/jwks` },
      });
      try {
        const refused = await summary(await callProtected(closed.url, bearer(await tokenFor(closed.url))));
        assert.equal(refused.status, 502, JSON.stringify(refused));
      } finally {
        await closed.close();
      }
      // Back up: the next request fetches the keys; the user has no organization yet.
      assert.equal((await callProtected(other.url, bearer(credential))).status, 403);
    });
  });
});
