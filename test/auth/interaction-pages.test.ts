import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { browse, CookieJar, pkce, REDIRECT_URI, registerClient, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

/** The pages a person sees during authorization: sign in, consent, and what happens on mistakes. */
eachEngine('OAuth sign-in and consent pages', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  /** Starts an authorization and returns the jar and the sign-in page's URL. */
  async function start() {
    const jar = new CookieJar();
    const clientId = await registerClient(server.url);
    const query = new URLSearchParams({
      client_id: clientId,
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'ap',
      state: randomBytes(4).toString('hex'),
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    });
    const res = await browse(jar, `${server.url}/authorize?${query}`);
    assert.equal(res.status, 303);
    return { jar, interaction: new URL(res.headers.get('location')!, server.url).href };
  }

  it('shows a sign-in form, and refuses a wrong password with 401 and the form again', async () => {
    const { jar, interaction } = await start();
    const form = await browse(jar, interaction);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type')!, /text\/html/);
    assert.match(await form.text(), /name="password"/);
    const user = await seedUser(server.db);
    const wrong = await browse(jar, `${interaction}/login`, {
      form: { email: user.email, password: 'not the password' },
    });
    assert.equal(wrong.status, 401);
    const page = await wrong.text();
    assert.match(page, /Wrong email or password/);
    assert.ok(page.includes(`value="${user.email}"`), 'the email is kept');
    const unknown = await browse(jar, `${interaction}/login`, {
      form: { email: 'nobody@example.test', password: 'whatever-long-enough' },
    });
    assert.equal(unknown.status, 401);
  });

  it('asks for consent naming the client, and a denial returns access_denied to the client', async () => {
    const { jar, interaction } = await start();
    await browse(jar, interaction);
    const user = await seedUser(server.db);
    let res = await browse(jar, `${interaction}/login`, { form: { email: user.email, password: user.password } });
    assert.equal(res.status, 303);
    res = await browse(jar, new URL(res.headers.get('location')!, server.url).href);
    const consent = new URL(res.headers.get('location')!, server.url).href;
    const page = await (await browse(jar, consent)).text();
    assert.match(page, /<strong>Test client<\/strong> asks to use the ap registry/);
    res = await browse(jar, `${consent}/abort`, { form: {} });
    res = await browse(jar, new URL(res.headers.get('location')!, server.url).href);
    const back = new URL(res.headers.get('location')!);
    assert.equal(back.origin + back.pathname, REDIRECT_URI);
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('code'), null);
  });

  it('answers an unknown or cookie-less interaction with a readable page, not a server error', async () => {
    const res = await fetch(`${server.url}/interaction/not-a-real-interaction`);
    assert.equal(res.status, 400);
    assert.match(res.headers.get('content-type')!, /text\/html/);
    assert.match(await res.text(), /Sign-in interrupted/);
  });
});
