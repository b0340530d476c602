import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember } from '../../src/auth/accounts/service.ts';
import { eachEngine } from '../support/engines.ts';
import { accessToken, bearer, seedOrganization, seedUser } from '../support/identity.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { addWhoami, callProtected, summary, whoami } from './helpers.ts';

/** 403: a valid user token acts for an organization only through a membership. */
eachEngine('organization standing of users', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, { extend: addWhoami });
  });
  after(() => server.close());

  const forbidden = async (res: Response) => {
    const seen = await summary(res);
    assert.equal(seen.status, 403, JSON.stringify(seen));
    assert.equal((seen.body as { error: string }).error, 'forbidden');
    assert.equal(seen.challenge, null, 'a 403 is no authentication challenge');
  };

  describe('membership', () => {
    it('refuses a save with 403 forbidden for a user of no organization, and allows it once they join one', async () => {
      const loner = await seedUser(server.db);
      const token = await accessToken(server.url, loner);
      const who = await whoami(server.url, bearer(token));
      assert.equal(who.status, 200, 'the token itself is valid');
      assert.equal(who.body.kind, 'user');
      assert.equal(who.body.subject, loner.user.id);
      assert.equal(who.body.organization, undefined);
      await forbidden(await callProtected(server.url, bearer(token)));

      // Memberships are read at each request: the same token works as soon as the user joins.
      const org = await seedOrganization(server.db);
      await addMember(server.db, org.slug, loner.user.id);
      const res = await callProtected(server.url, bearer(token));
      assert.equal(res.status, 201, JSON.stringify(await summary(res)));
    });
  });

  describe('the AP-Organization header', () => {
    let token: string;
    let first: string;
    let second: string;
    let outside: string;
    before(async () => {
      first = (await seedOrganization(server.db)).slug;
      second = (await seedOrganization(server.db)).slug;
      outside = (await seedOrganization(server.db)).slug;
      const member = await seedUser(server.db, { organization: first });
      await addMember(server.db, second, member.user.id, 'admin');
      token = await accessToken(server.url, member);
    });

    it('acts for the oldest membership when absent', async () => {
      const { body } = await whoami(server.url, bearer(token));
      assert.equal(body.organization.slug, first);
      assert.equal(body.organization.role, 'member');
      assert.equal((await callProtected(server.url, bearer(token))).status, 201);
    });

    it('selects another of the user’s organizations', async () => {
      const headers = { ...bearer(token), 'ap-organization': second };
      const { body } = await whoami(server.url, headers);
      assert.equal(body.organization.slug, second);
      assert.equal(body.organization.role, 'admin');
      assert.equal((await callProtected(server.url, headers)).status, 201);
    });

    it('gives 403 when it names an organization the user is not in', async () => {
      await forbidden(await callProtected(server.url, { ...bearer(token), 'ap-organization': outside }));
    });

    it('gives 403 when it names no organization at all', async () => {
      await forbidden(await callProtected(server.url, { ...bearer(token), 'ap-organization': 'no-such-organization' }));
    });
  });
});
