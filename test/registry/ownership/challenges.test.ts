import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { startDns, type TestDns } from '../../support/dns.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startPublishers, type Publishers } from '../../support/publishers.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('ownership challenges', (engine) => {
  let server: TestServer;
  let dns: TestDns;
  let publishers: Publishers;
  const clock = new ManualClock();
  let acme: Record<string, string>;
  let globex: Record<string, string>;

  before(async () => {
    [dns, publishers] = await Promise.all([startDns(), startPublishers()]);
    // The 50-way race below is more than an hour's budget at the default limits.
    const env = {
      RATE_LIMIT_SAVES_PER_HOUR: '1000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_ORG: '1000',
      RATE_LIMIT_SAVES_PER_HOUR_PER_IP: '1000',
    };
    server = await startTestServer(engine, {
      env,
      deps: { clock, resolveTxt: dns.resolveTxt, fetcher: publishers.fetcher },
    });
    for (const slug of ['acme', 'globex']) await seedOrganization(server.db, { slug });
    acme = bearer(await createApiKeyFor(server.db, 'acme'));
    globex = bearer(await createApiKeyFor(server.db, 'globex'));
  });
  after(async () => {
    await server.close();
    await Promise.all([dns.close(), publishers.close()]);
  });
  beforeEach(() => dns.txt.clear());

  const challenge = async (domain: string, as = acme): Promise<Json> => {
    const res = await postJson(`${server.url}/api/ownership/challenges`, { domain }, as);
    assert.equal(res.status, 201);
    return json(res);
  };
  const verify = (id: string, method: 'dns' | 'http', as = acme) =>
    postJson(`${server.url}/api/ownership/challenges/${id}/verify`, { method }, as);
  const stateOf = async (id: string) =>
    (await server.db.query<{ state: string }>(`select state from ownership_challenges where id = $1`, [id]))[0]!.state;
  const refused = async (res: Response, status: number, code: string) => {
    const body = await json(res);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.equal(body.error, code);
    return body;
  };

  describe('issuing', () => {
    it('gives a nonce with both proofs and an expiry within 15 minutes', async () => {
      const c = await challenge('Issue.Example');
      assert.equal(c.domain, 'issue.example');
      assert.match(c.nonce, /^ap-owner-[A-Za-z0-9_-]{32}$/);
      assert.deepEqual(c.dns, { name: '_ap-owner.issue.example', type: 'TXT', value: c.nonce });
      assert.deepEqual(c.http, { url: 'https://issue.example/.well-known/ap-ownership.txt', body: c.nonce });
      const ttl = Date.parse(c.expires_at) - clock.now().getTime();
      assert.ok(ttl > 0 && ttl <= 15 * 60 * 1000, `ttl ${ttl}`);
      assert.notEqual((await challenge('issue.example')).nonce, c.nonce, 'every challenge has its own nonce');
    });

    it('needs a credential acting for an organization and a valid domain', async () => {
      assert.equal((await postJson(`${server.url}/api/ownership/challenges`, { domain: 'x.example' }, {})).status, 401);
      await refused(
        await postJson(`${server.url}/api/ownership/challenges`, { domain: 'http://x.example/path' }, acme),
        400,
        'invalid_domain',
      );
    });
  });

  describe('every nonce transition', () => {
    it('is consumed by a successful DNS verification, and cannot be used again', async () => {
      const c = await challenge('dns-ok.example');
      dns.txt.set('_ap-owner.dns-ok.example', ['unrelated', c.nonce]);
      const res = await verify(c.challenge_id, 'dns');
      const body = await json(res);
      assert.equal(res.status, 200, JSON.stringify(body));
      assert.equal(body.verified, true);
      assert.equal(body.method, 'dns');
      assert.equal(Date.parse(body.valid_until) - Date.parse(body.proved_at), 90 * 86_400_000);
      assert.equal(await stateOf(c.challenge_id), 'consumed');
      await refused(await verify(c.challenge_id, 'dns'), 409, 'nonce_used');
    });

    it('is consumed by a successful HTTP verification', async () => {
      const c = await challenge('http-ok.ap.test');
      publishers.serve('http-ok.ap.test', '/.well-known/ap-ownership.txt', {
        body: `someone-else\n${c.nonce}\n`,
        contentType: 'text/plain',
      });
      const res = await verify(c.challenge_id, 'http');
      assert.equal(res.status, 200, JSON.stringify(await json(res.clone())));
      assert.equal(await stateOf(c.challenge_id), 'consumed');
    });

    it('is invalidated by a failed verification, and stays invalid after the domain shows it', async () => {
      const c = await challenge('dns-fail.example');
      const body = await refused(await verify(c.challenge_id, 'dns'), 422, 'ownership_not_proven');
      assert.match(body.message, /_ap-owner\.dns-fail\.example has no TXT record/);
      assert.equal(await stateOf(c.challenge_id), 'invalidated');
      dns.txt.set('_ap-owner.dns-fail.example', [c.nonce]);
      await refused(await verify(c.challenge_id, 'dns'), 409, 'nonce_used');
    });

    it('fails HTTP verification on a wrong body, an error status or a redirect', async () => {
      for (const [host, page] of [
        ['wrong-body.ap.test', { body: 'not the nonce' }],
        ['missing.ap.test', { status: 404, body: 'not found' }],
      ] as const) {
        const c = await challenge(host);
        publishers.serve(host, '/.well-known/ap-ownership.txt', page);
        await refused(await verify(c.challenge_id, 'http'), 422, 'ownership_not_proven');
        assert.equal(await stateOf(c.challenge_id), 'invalidated');
      }
    });

    it('is dead after 15 minutes, even when the domain shows it', async () => {
      const c = await challenge('late.example');
      dns.txt.set('_ap-owner.late.example', [c.nonce]);
      clock.advance(15 * 60 * 1000 + 1000);
      const body = await refused(await verify(c.challenge_id, 'dns'), 410, 'nonce_expired');
      assert.match(body.message, /expired/);
      assert.equal(await stateOf(c.challenge_id), 'issued');
    });

    it("refuses another organization's nonce, as if it did not exist, and leaves it usable", async () => {
      const c = await challenge('theirs.example', globex);
      dns.txt.set('_ap-owner.theirs.example', [c.nonce]);
      await refused(await verify(c.challenge_id, 'dns', acme), 404, 'not_found');
      assert.equal(await stateOf(c.challenge_id), 'issued');
      assert.equal((await verify(c.challenge_id, 'dns', globex)).status, 200);
    });

    it('answers 404 for an unknown challenge and 400 for a malformed id or method', async () => {
      await refused(await verify('00000000-0000-4000-8000-000000000000', 'dns'), 404, 'not_found');
      await refused(
        await postJson(`${server.url}/api/ownership/challenges/not-a-uuid/verify`, { method: 'dns' }, acme),
        400,
        'validation_failed',
      );
      const c = await challenge('method.example');
      await refused(
        await postJson(`${server.url}/api/ownership/challenges/${c.challenge_id}/verify`, { method: 'email' }, acme),
        400,
        'validation_failed',
      );
      assert.equal(await stateOf(c.challenge_id), 'issued');
    });
  });

  it('lets exactly one of 50 concurrent verifications of one nonce succeed', async () => {
    const c = await challenge('race.example');
    dns.txt.set('_ap-owner.race.example', [c.nonce]);
    const answers = await Promise.all(Array.from({ length: 50 }, () => verify(c.challenge_id, 'dns')));
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 409).length, 49, statuses.join(','));
    assert.equal(await stateOf(c.challenge_id), 'consumed');
  });
});
