import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, it } from 'node:test';
import { listKeys } from '../../src/auth/api-keys/service.ts';
import { eachEngine } from '../support/engines.ts';
import { bearer, browse, createApiKeyFor, seedOrganization, seedUser } from '../support/identity.ts';
import { callProtected } from '../support/requests.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createKeyThroughPage, csrfOf, keysPage, revokeThroughPage, signInAs } from './pages.ts';

const PREFIX = /^ap_([0-9a-f]{12})_/;

eachEngine('dashboard API keys', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine);
  });
  after(() => server.close());

  const keyNamed = async (organizationId: string, name: string) => {
    const key = (await listKeys(server.db, organizationId)).find((k) => k.name === name);
    assert.ok(key, `a key named ${name} exists`);
    return key;
  };
  const save = (credential: string, domain: string) => callProtected(server.url, bearer(credential), domain);

  it('creates a key that is shown once, stored only as a hash, and works at once', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const jar = await signInAs(server.url, alice);
    const csrf = csrfOf(await keysPage(server.url, jar));

    const res = await browse(jar, `${server.url}/dashboard/api-keys`, {
      form: { csrf, org: org.slug, name: 'CI <deploy>' },
    });
    assert.equal(res.status, 201);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const html = await res.text();
    assert.match(html, /will not be shown again/);
    assert.match(html, /CI &#60;deploy&#62;/, 'names are escaped');
    const key = /id="new-key"[^>]*>([^<]+)</.exec(html)![1]!;
    const prefix = PREFIX.exec(key)![1]!;

    const list = await keysPage(server.url, jar);
    assert.ok(!list.includes(key), 'the list never shows the key again');
    assert.ok(list.includes(`ap_${prefix}_…`), 'only its prefix');

    const [row] = await server.db.query<{ hash: string; text: string }>(
      `select encode(key_hash, 'hex') as hash, row_to_json(k)::text as text from api_keys k where prefix = $1`,
      [prefix],
    );
    assert.ok(row);
    assert.equal(row.hash, createHash('sha256').update(key).digest('hex'));
    const secret = key.slice(`ap_${prefix}_`.length);
    assert.ok(!row.text.includes(secret), 'no column holds the plaintext key');
    const record = await keyNamed(org.id, 'CI <deploy>');
    assert.equal(record.role, 'member');
    assert.equal(record.created_by, alice.user.id);

    assert.equal((await save(key, 'dash-created.example')).status, 201);
  });

  it('records when a key was last used', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    const jar = await signInAs(server.url, alice);
    const key = await createKeyThroughPage(server.url, jar, org.slug, 'usage');
    assert.equal((await keyNamed(org.id, 'usage')).last_used_at, null);
    assert.match(await keysPage(server.url, jar), /<td>usage<\/td>(<td>.*?<\/td>){3}<td>never<\/td>/);

    assert.equal((await save(key, 'dash-used.example')).status, 201);
    assert.notEqual((await keyNamed(org.id, 'usage')).last_used_at, null);
    assert.match(await keysPage(server.url, jar), /<td>usage<\/td>(<td>.*?<\/td>){3}<td><time datetime=/);
  });

  it('refuses a form without the session’s CSRF token, and changes nothing', async () => {
    const org = await seedOrganization(server.db);
    const admin = await seedUser(server.db, { organization: org.slug, role: 'admin' });
    const jar = await signInAs(server.url, admin);
    const key = await createKeyThroughPage(server.url, jar, org.slug, 'kept');
    const kept = await keyNamed(org.id, 'kept');

    for (const csrf of [
      undefined,
      'wrong',
      csrfOf(await keysPage(server.url, await signInAs(server.url, admin))).slice(1),
    ]) {
      const form = (fields: Record<string, string>) => (csrf === undefined ? fields : { ...fields, csrf });
      const create = await browse(jar, `${server.url}/dashboard/api-keys`, {
        form: form({ org: org.slug, name: 'forged' }),
      });
      assert.equal(create.status, 403);
      const revoke = await browse(jar, `${server.url}/dashboard/api-keys/${kept.id}/revoke`, { form: form({}) });
      assert.equal(revoke.status, 403);
    }
    // Another session's token is no better than a wrong one.
    const otherSession = csrfOf(await keysPage(server.url, await signInAs(server.url, admin)));
    assert.equal(
      (
        await browse(jar, `${server.url}/dashboard/api-keys`, {
          form: { csrf: otherSession, org: org.slug, name: 'forged' },
        })
      ).status,
      403,
    );

    const keys = await listKeys(server.db, org.id);
    assert.deepEqual(
      keys.map((k) => [k.name, k.revoked_at]),
      [['kept', null]],
    );
    assert.equal((await save(key, 'dash-csrf.example')).status, 201);
  });

  it('lets members create only member keys, and admins choose', async () => {
    const org = await seedOrganization(server.db);
    const member = await seedUser(server.db, { organization: org.slug });
    const admin = await seedUser(server.db, { organization: org.slug, role: 'admin' });
    const memberJar = await signInAs(server.url, member);
    const memberPage = await keysPage(server.url, memberJar);
    assert.doesNotMatch(memberPage, /<select[^>]*name="role"/);
    const refused = await browse(memberJar, `${server.url}/dashboard/api-keys`, {
      form: { csrf: csrfOf(memberPage), org: org.slug, name: 'sneaky', role: 'admin' },
    });
    assert.equal(refused.status, 403);
    assert.equal((await listKeys(server.db, org.id)).length, 0);

    const adminJar = await signInAs(server.url, admin);
    assert.match(await keysPage(server.url, adminJar), /<select[^>]*name="role"/);
    await createKeyThroughPage(server.url, adminJar, org.slug, 'ops', 'admin');
    assert.equal((await keyNamed(org.id, 'ops')).role, 'admin');

    const blank = await browse(adminJar, `${server.url}/dashboard/api-keys`, {
      form: { csrf: csrfOf(await keysPage(server.url, adminJar)), org: org.slug, name: '   ' },
    });
    assert.equal(blank.status, 400);
    assert.match(await blank.text(), /1 to 100 characters/);
  });

  it('lets a member revoke their own keys but not another member’s; an admin revokes any', async () => {
    const org = await seedOrganization(server.db);
    const [alice, bob, admin] = await Promise.all([
      seedUser(server.db, { organization: org.slug }),
      seedUser(server.db, { organization: org.slug }),
      seedUser(server.db, { organization: org.slug, role: 'admin' }),
    ]);
    const aliceJar = await signInAs(server.url, alice);
    const bobJar = await signInAs(server.url, bob);
    const aliceKey = await createKeyThroughPage(server.url, aliceJar, org.slug, 'alice key');
    await createKeyThroughPage(server.url, aliceJar, org.slug, 'alice spare');
    const aliceRecord = await keyNamed(org.id, 'alice key');

    const bobsView = await keysPage(server.url, bobJar);
    assert.ok(bobsView.includes('alice key'), 'members see every key of their organization');
    assert.ok(
      !bobsView.includes(`/dashboard/api-keys/${aliceRecord.id}/revoke`),
      'but no Revoke button for others’ keys',
    );
    const refused = await revokeThroughPage(server.url, bobJar, aliceRecord.id);
    assert.equal(refused.status, 403);
    assert.equal((await keyNamed(org.id, 'alice key')).revoked_at, null);
    assert.equal((await save(aliceKey, 'dash-alice.example')).status, 201);

    const own = await revokeThroughPage(server.url, aliceJar, (await keyNamed(org.id, 'alice spare')).id);
    assert.equal(own.status, 303);
    assert.equal(own.headers.get('location'), `/dashboard/api-keys?org=${org.slug}`);
    assert.notEqual((await keyNamed(org.id, 'alice spare')).revoked_at, null);

    const adminJar = await signInAs(server.url, admin);
    assert.ok((await keysPage(server.url, adminJar)).includes(`/dashboard/api-keys/${aliceRecord.id}/revoke`));
    const revoked = await revokeThroughPage(server.url, adminJar, aliceRecord.id);
    assert.equal(revoked.status, 303);
    assert.notEqual((await keyNamed(org.id, 'alice key')).revoked_at, null);
    assert.equal((await save(aliceKey, 'dash-alice.example')).status, 401, 'a revoked key fails at once');
  });

  it('never shows or revokes keys of an organization the user is not in', async () => {
    const mine = await seedOrganization(server.db);
    const theirs = await seedOrganization(server.db);
    const admin = await seedUser(server.db, { organization: mine.slug, role: 'admin' });
    const theirKey = await createApiKeyFor(server.db, theirs.slug);
    const theirRecord = (await listKeys(server.db, theirs.id))[0]!;
    const theirPrefix = PREFIX.exec(theirKey)![1]!;

    const jar = await signInAs(server.url, admin);
    const page = await keysPage(server.url, jar);
    assert.ok(!page.includes(theirPrefix));
    assert.ok(!page.includes(theirRecord.name));
    assert.ok(!page.includes(theirRecord.id));

    const other = await browse(jar, `${server.url}/dashboard/api-keys?org=${theirs.slug}`);
    assert.equal(other.status, 404);
    assert.ok(!(await other.text()).includes(theirPrefix));

    const revoke = await revokeThroughPage(server.url, jar, theirRecord.id);
    assert.equal(revoke.status, 404);
    const create = await browse(jar, `${server.url}/dashboard/api-keys`, {
      form: { csrf: csrfOf(page), org: theirs.slug, name: 'intruder' },
    });
    assert.equal(create.status, 403);
    assert.deepEqual(
      (await listKeys(server.db, theirs.id)).map((k) => [k.name, k.revoked_at]),
      [[theirRecord.name, null]],
    );
    assert.equal((await save(theirKey, 'dash-theirs.example')).status, 201);

    assert.equal((await revokeThroughPage(server.url, jar, 'not-a-uuid')).status, 404);
  });

  it('offers a picker between the user’s organizations', async () => {
    const first = await seedOrganization(server.db);
    const second = await seedOrganization(server.db);
    const user = await seedUser(server.db, { organization: first.slug, role: 'admin' });
    await server.db.query(`insert into memberships (organization_id, user_id, role) values ($1, $2, 'member')`, [
      second.id,
      user.user.id,
    ]);
    await createApiKeyFor(server.db, first.slug);
    const secondKey = await createApiKeyFor(server.db, second.slug);
    const jar = await signInAs(server.url, user);

    const page = await keysPage(server.url, jar);
    assert.match(page, new RegExp(`<a href="/dashboard/api-keys\\?org=${second.slug}">`));
    assert.ok(!page.includes(PREFIX.exec(secondKey)![1]!), 'the first organization is the default');
    const secondPage = await keysPage(server.url, jar, second.slug);
    assert.ok(secondPage.includes(PREFIX.exec(secondKey)![1]!));
    assert.match(secondPage, /Your role here: member/);
    assert.match(secondPage, new RegExp(`name="org" value="${second.slug}"`));
  });

  it('tells a user without an organization so', async () => {
    const loner = await seedUser(server.db);
    const page = await keysPage(server.url, await signInAs(server.url, loner));
    assert.match(page, /You belong to no organization yet/);
    assert.doesNotMatch(page, /Create key/);
  });

  it('keeps the dashboard out of the OpenAPI document', async () => {
    const routes = server.app.routeTable.filter((r) => r.url.startsWith('/dashboard'));
    assert.ok(routes.length >= 5);
    assert.ok(routes.every((r) => r.schema?.hide === true));
    const document = await (await fetch(`${server.url}/openapi/registry.yaml`)).text();
    assert.doesNotMatch(document, /^\s+\/dashboard[^:]*:\s*$/m, 'no /dashboard path');
  });
});
