import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { browse, CookieJar, pkce, REDIRECT_URI, registerClient, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** Password guessing is throttled per IP, across both sign-in forms. */
eachEngine('sign-in rate limit', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, { env: { RATE_LIMIT_SIGN_INS_PER_MINUTE: '3' } });
  });
  after(() => server.close());

  it('shares one per-IP budget between the dashboard and the OAuth sign-in page, then answers 429 with Retry-After', async () => {
    const user = await seedUser(server.db);
    const wrong = { email: user.email, password: 'a wrong password' };
    const dashboard = () => browse(new CookieJar(), `${server.url}/dashboard/login`, { form: wrong });

    const jar = new CookieJar();
    const query = new URLSearchParams({
      client_id: await registerClient(server.url),
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'ap',
      state: randomBytes(4).toString('hex'),
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const interaction = new URL(
      (await browse(jar, `${server.url}/authorize?${query}`)).headers.get('location')!,
      server.url,
    ).href;
    const oauth = (form = wrong) => browse(jar, `${interaction}/login`, { form });

    assert.equal((await dashboard()).status, 401);
    assert.equal((await oauth()).status, 401);
    assert.equal((await dashboard()).status, 401);
    for (const limited of [
      await oauth(),
      await dashboard(),
      await oauth({ email: user.email, password: user.password }),
    ]) {
      assert.equal(limited.status, 429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    }
  });
});
