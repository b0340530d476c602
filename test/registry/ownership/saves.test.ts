import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { saveAuthoritative } from '../../../src/registry/properties/service.ts';
import { startDns, type TestDns } from '../../support/dns.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { bearer, createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { asAdmin, startTestServer, type TestServer } from '../../support/server.ts';

const DAY = 86_400_000;

/** Saves commit only for an organization that proved control of the domain (anti-abuse rules 2, 3, 6). */
eachEngine('saves need proof of domain control', (engine) => {
  let server: TestServer;
  let dns: TestDns;
  const clock = new ManualClock();
  let acme: Record<string, string>;
  let globex: Record<string, string>;

  before(async () => {
    dns = await startDns();
    server = await startTestServer(engine, { deps: { clock, resolveTxt: dns.resolveTxt } });
    for (const slug of ['acme', 'globex']) await seedOrganization(server.db, { slug });
    acme = bearer(await createApiKeyFor(server.db, 'acme'));
    globex = bearer(await createApiKeyFor(server.db, 'globex'));
  });
  after(async () => {
    await server.close();
    await dns.close();
  });

  /** The whole proof, as a client does it: challenge, publish the TXT record, verify. */
  async function prove(domain: string, as: Record<string, string>) {
    const challenge = await json(await postJson(`${server.url}/api/ownership/challenges`, { domain }, as));
    dns.txt.set(`_ap-owner.${domain}`, [challenge.nonce]);
    const res = await postJson(
      `${server.url}/api/ownership/challenges/${challenge.challenge_id}/verify`,
      { method: 'dns' },
      as,
    );
    assert.equal(res.status, 200);
  }
  const saveBrand = (domain: string, as: Record<string, string>, name = 'Acme') =>
    postJson(`${server.url}/api/brands/save`, { domain, brand_name: name }, as);
  const saveProperty = (domain: string, as: Record<string, string>) =>
    postJson(`${server.url}/api/properties/save`, { publisher_domain: domain, authorized_agents: [] }, as);
  const rows = async (domain: string) =>
    (
      await server.db.query<{ n: number }>(
        `select (select count(*) from brands where domain = $1) + (select count(*) from properties where publisher_domain = $1) as n`,
        [domain],
      )
    )[0]!.n;

  describe('a new entry', () => {
    it('is refused without proof, with 403 ownership_required saying how to prove it, and nothing is written', async () => {
      const events = async () =>
        (await server.db.query<{ n: number }>(`select count(*)::int as n from registry_events`))[0]!.n;
      const before = await events();
      for (const res of [await saveBrand('unproven.example', acme), await saveProperty('unproven.example', acme)]) {
        const body = await json(res);
        assert.equal(res.status, 403);
        assert.equal(body.error, 'ownership_required');
        assert.match(
          body.message,
          /acme cannot save unproven\.example: it has not proven control of unproven\.example.*POST \/api\/ownership\/challenges/,
        );
      }
      assert.equal(await rows('unproven.example'), 0);
      assert.equal(await events(), before);
    });

    it('lands once the organization proved control, for brands and properties', async () => {
      await prove('proven.example', acme);
      assert.equal((await saveBrand('proven.example', acme)).status, 201);
      assert.equal((await saveProperty('proven.example', acme)).status, 201);
    });

    it("does not count another organization's proof", async () => {
      await prove('theirs.example', globex);
      assert.equal((await saveBrand('theirs.example', acme)).status, 403);
      assert.equal((await saveBrand('theirs.example', globex)).status, 201);
    });
  });

  describe('revisions', () => {
    it('need no new proof within 90 days, and a new one after', async () => {
      await prove('aging.example', acme);
      assert.equal((await saveBrand('aging.example', acme)).status, 201);
      clock.advance(89 * DAY);
      assert.equal((await saveBrand('aging.example', acme, 'Acme 2')).status, 200);
      clock.advance(2 * DAY); // 91 days after the proof
      const res = await saveBrand('aging.example', acme, 'Acme 3');
      const body = await json(res);
      assert.equal(res.status, 403);
      assert.equal(body.error, 'ownership_required');
      assert.match(body.message, /older than 90 days/);
      const rollback = await postJson(
        `${server.url}/api/brands/rollback`,
        { domain: 'aging.example', to_revision: 1 },
        acme,
      );
      assert.equal(rollback.status, 403, 'a rollback is a revision too');
      await prove('aging.example', acme);
      assert.equal((await saveBrand('aging.example', acme, 'Acme 3')).status, 200);
    });
  });

  it('answers 409 for authoritative entries, proof or not', async () => {
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, 'managed.example', { authorized_agents: [], inventory: [], contact: null }),
    );
    const res = await saveProperty('managed.example', acme);
    assert.equal(res.status, 409);
    assert.equal((await json(res)).error, 'authoritative_entry');
  });

  it("exempts the registry operator's administrators, who curate the registry", async () => {
    assert.equal((await saveBrand('curated.example', asAdmin)).status, 201);
  });
});
