import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { bearer, pkce, registerClient, seedOrganization, seedUser, type SeededUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { authorizationCode, authorizeWith, redeem, callProtected, summary, tokenRequest } from './helpers.ts';

/** What the embedded authorization server refuses, each through real HTTP requests. */
eachEngine('OAuth 2.1 refusals', (engine) => {
  let server: TestServer;
  let alice: SeededUser;
  before(async () => {
    server = await startTestServer(engine);
    const org = await seedOrganization(server.db);
    alice = await seedUser(server.db, { organization: org.slug });
  });
  after(() => server.close());

  describe('token endpoint', () => {
    it('refuses a wrong code_verifier with 400 invalid_grant', async () => {
      const authorized = await authorizationCode(server.url, alice);
      const res = await redeem(server.url, { ...authorized, verifier: pkce().verifier });
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'invalid_grant');
    });

    it('refuses a missing code_verifier with 400', async () => {
      const { clientId, code } = await authorizationCode(server.url, alice);
      const res = await tokenRequest(server.url, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: 'http://127.0.0.1:9/callback',
        client_id: clientId,
      });
      assert.equal(res.status, 400);
      assert.match((await json(res)).error, /^invalid_(grant|request)$/);
    });

    it('refuses a reused code with 400 invalid_grant and revokes what the first exchange stored', async () => {
      // offline_access (with prompt=consent, as OpenID requires) makes the first exchange issue a
      // refresh token too, a token the provider keeps in the database and so can revoke.
      const authorized = await authorizationCode(server.url, alice, {
        scope: 'openid offline_access ap',
        prompt: 'consent',
      });
      const first = await redeem(server.url, authorized);
      assert.equal(first.status, 200);
      const tokens = await json(first);
      assert.equal(typeof tokens.refresh_token, 'string', 'the first exchange issues a refresh token');
      const [{ grant_id: grantId } = { grant_id: undefined }] = await server.db.query<{ grant_id: string }>(
        `select grant_id from oauth_records where model = 'RefreshToken' and grant_id is not null`,
      );
      assert.ok(grantId, 'the refresh token is stored with its grant');
      assert.equal(
        (await callProtected(server.url, bearer(tokens.access_token))).status,
        201,
        'the first access token works',
      );

      const second = await redeem(server.url, authorized);
      assert.equal(second.status, 400);
      assert.equal((await json(second)).error, 'invalid_grant');

      // oidc-provider revokes the grant through the adapter's revokeByGrantId (and destroys the
      // Grant itself): nothing of it is left in the database, so the refresh token is refused.
      const left = await server.db.query(
        `select model from oauth_records where grant_id = $1 or (model = 'Grant' and id = $1)`,
        [grantId],
      );
      assert.deepEqual(left, []);
      const refresh = await tokenRequest(server.url, {
        grant_type: 'refresh_token',
        refresh_token: tokens.refresh_token,
        client_id: authorized.clientId,
      });
      assert.equal(refresh.status, 400);
      assert.equal((await json(refresh)).error, 'invalid_grant');

      // The access token is a self-contained JWT (RFC 9068), but it names its grant and the
      // grant is gone: refused at once, long before its `exp`.
      assert.ok(decodeJwt(tokens.access_token).exp! > Date.now() / 1000);
      const refused = await callProtected(server.url, bearer(tokens.access_token));
      assert.equal(refused.status, 401);
      assert.match(refused.headers.get('www-authenticate')!, /error="invalid_token"/);
    });

    it('lets exactly one of many simultaneous exchanges of one code succeed, and revokes it', async () => {
      const authorized = await authorizationCode(server.url, alice);
      const answers = await Promise.all(Array.from({ length: 8 }, () => redeem(server.url, authorized)));
      const ok = answers.filter((r) => r.status === 200);
      assert.ok(ok.length <= 1, `${ok.length} exchanges succeeded`);
      for (const res of answers.filter((r) => r.status !== 200)) {
        assert.equal(res.status, 400);
        assert.equal((await json(res)).error, 'invalid_grant');
      }
      // A replay revokes the grant, so even a winning token stops working.
      for (const res of ok)
        assert.equal((await callProtected(server.url, bearer((await json(res)).access_token))).status, 401);
    });

    it('refuses a code redeemed by another client', async () => {
      const authorized = await authorizationCode(server.url, alice);
      const other = await registerClient(server.url);
      const res = await redeem(server.url, { ...authorized, clientId: other });
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'invalid_grant');
    });
  });

  describe('authorization endpoint', () => {
    const refusal = async (params: Record<string, string>) => {
      const clientId = await registerClient(server.url);
      const url = await authorizeWith(server.url, clientId, params);
      assert.equal(url.searchParams.get('code'), null, `no code is issued: ${url}`);
      return { error: url.searchParams.get('error'), description: url.searchParams.get('error_description') ?? '' };
    };

    it('refuses code_challenge_method=plain', async () => {
      const { verifier } = pkce();
      const { error, description } = await refusal({
        scope: 'ap',
        code_challenge: verifier,
        code_challenge_method: 'plain',
      });
      assert.equal(error, 'invalid_request');
      assert.match(description, /code_challenge_method/);
    });

    it('refuses a request without PKCE', async () => {
      const { error, description } = await refusal({ scope: 'ap' });
      assert.equal(error, 'invalid_request');
      assert.match(description, /PKCE/);
    });

    it('refuses a resource that is not one of this server’s', async () => {
      const { challenge } = pkce();
      const { error } = await refusal({
        scope: 'ap',
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: 'https://elsewhere.example/api',
      });
      assert.equal(error, 'invalid_target');
    });

    it('refuses response types other than code (no implicit or hybrid flow)', async () => {
      const { challenge } = pkce();
      const { error, description } = await refusal({
        scope: 'openid ap',
        response_type: 'id_token',
        nonce: 'n',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      assert.equal(error, 'unsupported_response_type', description);
    });

    it('shows an error page, not a redirect, for an unregistered redirect_uri', async () => {
      const clientId = await registerClient(server.url);
      const { challenge } = pkce();
      const query = new URLSearchParams({
        client_id: clientId,
        redirect_uri: 'https://attacker.example/cb',
        response_type: 'code',
        scope: 'ap',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const res = await fetch(`${server.url}/authorize?${query}`, { redirect: 'manual' });
      const { status, body } = await summary(res);
      assert.equal(status, 400);
      assert.equal(res.headers.get('location'), null);
      assert.match(String(body), /redirect_uri/);
    });
  });
});
