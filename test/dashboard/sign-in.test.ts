import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { browse, CookieJar, seedOrganization, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { csrfOf, keysPage, signInAs } from './pages.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

eachEngine('dashboard sign-in', (engine) => {
  let server: TestServer;
  before(async () => {
    // Trusting the proxy lets a test claim https through X-Forwarded-Proto.
    server = await startTestServer(engine, { env: { TRUST_PROXY: 'true' } });
  });
  after(() => server.close());

  it('sends a visitor without a session to the sign-in page, and back afterwards', async () => {
    const res = await fetch(`${server.url}/dashboard/api-keys`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/login?next=/dashboard/api-keys');

    const form = await fetch(`${server.url}/dashboard/login?next=/dashboard/api-keys`);
    assert.equal(form.status, 200);
    assert.match(form.headers.get('content-type') ?? '', /^text\/html/);
    const html = await form.text();
    assert.match(html, /name="email"/);
    assert.match(html, /name="password"/);
    assert.match(html, /name="next" value="\/dashboard\/api-keys"/);
  });

  it('answers wrong credentials with 401, the form and a message, and no session', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const before = await server.db.query<{ n: number }>('select count(*)::int as n from dashboard_sessions');
    for (const form of [
      { email: alice.email, password: `${alice.password}x` },
      { email: 'nobody@example.test', password: alice.password },
    ]) {
      const jar = new CookieJar();
      const res = await browse(jar, `${server.url}/dashboard/login`, { form });
      assert.equal(res.status, 401);
      assert.deepEqual(res.headers.getSetCookie(), []);
      const html = await res.text();
      assert.match(html, /Wrong email or password/);
      assert.match(html, /name="password"/);
    }
    const afterwards = await server.db.query<{ n: number }>('select count(*)::int as n from dashboard_sessions');
    assert.deepEqual(afterwards, before);
  });

  it('signs in with a cookie that holds a token whose hash alone is stored', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const res = await fetch(`${server.url}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: alice.email, password: alice.password }),
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/api-keys');
    const [cookie] = res.headers.getSetCookie();
    assert.ok(cookie);
    assert.match(cookie, /^ap_session=[A-Za-z0-9_-]{43};/);
    assert.match(cookie, /; HttpOnly/i);
    assert.match(cookie, /; SameSite=Lax/i);
    assert.match(cookie, /; Path=\/dashboard(;|$)/);
    assert.doesNotMatch(cookie, /; Secure/i, 'plain http gets no Secure cookie');
    const token = /^ap_session=([^;]+)/.exec(cookie)![1]!;

    const rows = await server.db.query<{ hash: string; csrf_token: string; hours: number }>(
      `select encode(token_hash, 'hex') as hash, csrf_token, round(extract(epoch from expires_at - now()) / 3600)::int as hours
         from dashboard_sessions where user_id = $1`,
      [alice.user.id],
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.hash, sha256(token));
    assert.equal(rows[0]!.hours, 12);
    assert.notEqual(rows[0]!.csrf_token, token);
  });

  it('marks the cookie Secure when the request came over https', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const res = await fetch(`${server.url}/dashboard/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https' },
      body: new URLSearchParams({ email: alice.email, password: alice.password }),
      redirect: 'manual',
    });
    assert.equal(res.status, 303);
    assert.match(res.headers.getSetCookie()[0] ?? '', /; Secure/i);
  });

  it('goes on to a local dashboard page after sign-in, never to another site', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const cases: [string, string][] = [
      [`/dashboard/api-keys?org=${org.slug}`, `/dashboard/api-keys?org=${org.slug}`],
      ['https://evil.example/dashboard/api-keys', '/dashboard/api-keys'],
      ['//evil.example/dashboard/api-keys', '/dashboard/api-keys'],
      ['/\\evil.example', '/dashboard/api-keys'],
      ['/api/brands/save', '/dashboard/api-keys'],
    ];
    for (const [next, expected] of cases) {
      const res = await browse(new CookieJar(), `${server.url}/dashboard/login`, {
        form: { email: alice.email, password: alice.password, next },
      });
      assert.equal(res.status, 303);
      assert.equal(res.headers.get('location'), expected, `next=${next}`);
    }
  });

  it('signs out: the session row is deleted and the cookie no longer works', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const jar = await signInAs(server.url, alice);
    const csrf = csrfOf(await keysPage(server.url, jar));

    const refused = await browse(jar, `${server.url}/dashboard/logout`, { form: { csrf: 'not-the-token' } });
    assert.equal(refused.status, 403);
    await keysPage(server.url, jar);

    const stale = jar.header();
    const res = await browse(jar, `${server.url}/dashboard/logout`, { form: { csrf } });
    assert.equal(res.status, 303);
    assert.equal(res.headers.get('location'), '/dashboard/login');
    const sessions = await server.db.query('select 1 from dashboard_sessions where user_id = $1', [alice.user.id]);
    assert.equal(sessions.length, 0);
    const again = await fetch(`${server.url}/dashboard/api-keys`, { headers: { cookie: stale }, redirect: 'manual' });
    assert.equal(again.status, 303, 'the old cookie is worthless');
  });

  it('ignores expired sessions and deletes them at the next sign-in', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const jar = await signInAs(server.url, alice);
    await server.db.query(`update dashboard_sessions set expires_at = now() - interval '1 second' where user_id = $1`, [
      alice.user.id,
    ]);
    const res = await browse(jar, `${server.url}/dashboard/api-keys`);
    assert.equal(res.status, 303);
    assert.match(res.headers.get('location') ?? '', /^\/dashboard\/login/);

    const bob = await seedUser(server.db, { organization: org.slug });
    await signInAs(server.url, bob);
    const expired = await server.db.query('select 1 from dashboard_sessions where expires_at <= now()');
    assert.equal(expired.length, 0);
  });
});
