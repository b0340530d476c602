import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  base64url,
  decodeJwt,
  exportJWK,
  generateKeyPair,
  UnsecuredJWT,
  type JWK,
  type JWTHeaderParameters,
  type JWTPayload,
} from 'jose';
import { eachEngine } from '../support/engines.ts';
import { json } from '../support/http.ts';
import { bearer, seedOrganization, seedUser, type SeededUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { authorizationCode, nowSeconds, redeem, callProtected, serverSigningKey, signJwt, summary } from './helpers.ts';

/**
 * The resource server's checks of access tokens. Each refused token is made by signing a JWT with
 * the server's own key (from `identity_secrets`) and exactly one thing wrong, so the refusal can
 * only come from that one check; the control token, right in every way, is accepted.
 */
eachEngine('access token verification', (engine) => {
  let server: TestServer;
  let alice: SeededUser;
  let key: JWK;
  let idToken: string;
  let grantId: string;

  before(async () => {
    server = await startTestServer(engine);
    const org = await seedOrganization(server.db);
    alice = await seedUser(server.db, { organization: org.slug });
    // A real flow asking for openid too: it makes the signing key and gives an ID token.
    const tokens = await json(
      await redeem(server.url, await authorizationCode(server.url, alice, { scope: 'openid ap' })),
    );
    assert.equal(typeof tokens.id_token, 'string');
    idToken = tokens.id_token;
    grantId = decodeJwt(tokens.access_token).gid as string;
    assert.equal(typeof grantId, 'string', 'access tokens name their grant');
    key = await serverSigningKey(server.db);
    assert.equal(key.kty, 'EC');
    assert.equal(key.crv, 'P-256');
    assert.equal(typeof key.d, 'string');
  });
  after(() => server.close());

  /** The claims and header of a token the embedded provider would issue for alice, with `changes`. */
  const claims = (changes: JWTPayload = {}): JWTPayload => ({
    iss: server.url,
    aud: `${server.url}/api`,
    sub: alice.user.id,
    iat: nowSeconds(),
    exp: nowSeconds() + 300,
    scope: 'ap',
    client_id: 'forged-client',
    jti: randomUUID(),
    gid: grantId,
    ...changes,
  });
  const header = (changes: Partial<JWTHeaderParameters> = {}): JWTHeaderParameters => ({
    alg: 'ES256',
    typ: 'at+jwt',
    kid: key.kid,
    ...changes,
  });
  const forge = (claimChanges: JWTPayload = {}, headerChanges: Partial<JWTHeaderParameters> = {}) =>
    signJwt(claims(claimChanges), header(headerChanges), key);

  const accepted = async (token: string) => {
    const res = await callProtected(server.url, bearer(token));
    assert.equal(res.status, 201, JSON.stringify(await summary(res)));
  };
  const refused = async (token: string) => {
    const res = await callProtected(server.url, bearer(token));
    const seen = await summary(res);
    assert.equal(seen.status, 401, JSON.stringify(seen));
    assert.equal((seen.body as { error: string }).error, 'unauthorized');
    assert.match(seen.challenge ?? '', /^Bearer .*error="invalid_token"/);
    assert.match(
      seen.challenge ?? '',
      new RegExp(`resource_metadata="${server.url}/.well-known/oauth-protected-resource/api"`),
    );
  };

  it('accepts a token right in every way (the control for the cases below)', async () => {
    await accepted(await forge());
  });

  describe('grant', () => {
    it('refuses a token that names no grant', async () => {
      await refused(await forge({ gid: undefined }));
    });
    it('refuses a token whose grant does not exist (revoked or never issued)', async () => {
      await refused(await forge({ gid: 'no-such-grant' }));
    });
  });

  describe('time', () => {
    it('accepts a token expired within the 30 s clock skew', async () => {
      await accepted(await forge({ iat: nowSeconds() - 3600, exp: nowSeconds() - 10 }));
    });
    it('refuses a token expired beyond the clock skew', async () => {
      await refused(await forge({ iat: nowSeconds() - 3600, exp: nowSeconds() - 60 }));
    });
    it('refuses a token not valid yet (nbf in the future beyond the skew)', async () => {
      await refused(await forge({ nbf: nowSeconds() + 120 }));
    });
    it('refuses a token without exp', async () => {
      await refused(await forge({ exp: undefined }));
    });
  });

  describe('issuer, audience and subject', () => {
    it('refuses another issuer', async () => {
      await refused(await forge({ iss: 'https://issuer.elsewhere.example' }));
    });
    it('refuses the issuer with a trailing slash (exact match)', async () => {
      await refused(await forge({ iss: `${server.url}/` }));
    });
    it('refuses an audience that is not one of this server’s resources', async () => {
      await refused(await forge({ aud: 'https://elsewhere.example/api' }));
    });
    it('refuses a token whose audience is a client (as an ID token’s is)', async () => {
      await refused(await forge({ aud: 'forged-client' }));
    });
    it('refuses a token without sub', async () => {
      await refused(await forge({ sub: undefined }));
    });
    it('refuses a subject that is no local user', async () => {
      await refused(await forge({ sub: randomUUID() }));
    });
  });

  describe('signature and algorithm', () => {
    it('refuses a token signed by another key under the server’s kid', async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      await refused(await signJwt(claims(), header(), { ...(await exportJWK(privateKey)), kid: key.kid }));
    });
    it('refuses a token signed by another key under its own kid', async () => {
      const { privateKey } = await generateKeyPair('ES256', { extractable: true });
      const other = { ...(await exportJWK(privateKey)), kid: randomUUID() };
      await refused(await signJwt(claims(), header({ kid: other.kid }), other));
    });
    it('refuses alg none', async () => {
      const unsecured = new UnsecuredJWT(claims()).encode();
      await refused(unsecured);
      // The same with a signature part, so it takes the JWT path rather than the API key one.
      await refused(`${unsecured}${base64url.encode('x')}`);
      const [, payload] = unsecured.split('.');
      const noneAtJwt = base64url.encode(JSON.stringify({ alg: 'none', typ: 'at+jwt', kid: key.kid }));
      await refused(`${noneAtJwt}.${payload}.${base64url.encode('x')}`);
    });
    it('refuses HS256 keyed with the server’s public key (algorithm confusion)', async () => {
      const { d: _d, ...publicKey } = key;
      await refused(
        await signJwt(claims(), header({ alg: 'HS256' }), new TextEncoder().encode(JSON.stringify(publicKey))),
      );
      await refused(await signJwt(claims(), header({ alg: 'HS256' }), base64url.decode(key.x!)));
    });
    it('refuses a token whose signature was altered', async () => {
      const token = await forge();
      const [h, p, s] = token.split('.') as [string, string, string];
      const flipped = Buffer.from(base64url.decode(s));
      flipped[0]! ^= 1;
      await refused(`${h}.${p}.${base64url.encode(flipped)}`);
    });
    it('refuses a token whose claims were altered after signing', async () => {
      const [h, , s] = (await forge()).split('.') as [string, string, string];
      const other = base64url.encode(JSON.stringify(claims({ sub: randomUUID() })));
      await refused(`${h}.${other}.${s}`);
    });
  });

  describe('token type (RFC 9068 at+jwt)', () => {
    it('refuses a token typed JWT, as ID tokens are, with every other claim right', async () => {
      await refused(await forge({}, { typ: 'JWT' }));
    });
    it('refuses a token with no typ', async () => {
      await refused(await forge({}, { typ: undefined }));
    });
    it('refuses the ID token the provider issued', async () => {
      await refused(idToken);
    });
  });

  it('refuses garbage shaped like a JWT', async () => {
    await refused('aaa.bbb.ccc');
  });
});
