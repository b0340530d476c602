import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Authenticator } from '../../../src/auth/authenticator.ts';
import type { Principal } from '../../../src/auth/principal.ts';
import { eachEngine } from '../../support/engines.ts';
import { json } from '../../support/http.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { postJson } from '../../support/requests.ts';
import { assertValidEvent, type EventRow } from '../properties/feed.ts';
import { adagents } from './documents.ts';
import { ManualClock } from '../../support/clock.ts';
import { saveCommunity } from '../../../src/registry/properties/service.ts';

const ENDPOINT = '/api/registry/crawl-request';
const users: Record<string, Principal> = Object.fromEntries(
  ['alice', 'bob', 'carol'].map((name) => [
    name,
    {
      kind: 'user',
      subject: name,
      displayName: name,
      organization: { organizationId: 'o', slug: 'o', role: 'member', apiTier: false, registryAdmin: false },
    },
  ]),
);
const authenticator: Authenticator = { authenticate: async (credential) => users[credential] ?? null };
const as = (user: string) => ({ authorization: `Bearer ${user}` });

eachEngine('POST /api/registry/crawl-request', (engine) => {
  let fleet: Fleet;
  let server: TestServer;
  const clock = new ManualClock();
  const request = (body: unknown, user = 'alice') => postJson(`${server.url}${ENDPOINT}`, body, as(user));

  before(async () => {
    fleet = await startFleet(Array.from({ length: 36 }, (_, i) => `ask-${i}`));
    for (const domain of fleet.domains) fleet.serve(domain, '/.well-known/adagents.json', { body: adagents(domain) });
    server = await startTestServer(engine, {
      env: { CRAWL_WORKER: 'true', CRAWL_POLL_SECONDS: '1', CRAWL_HOST_DELAY_MS: '0' },
      deps: {
        authenticator,
        clock,
        // Outside the fleet, names resolve like real ones would, to private and reserved ranges.
        fetcher: fleet.fetcher({
          names: {
            'intranet.example': ['10.1.2.3'],
            'metadata.example': ['169.254.169.254'],
            'split.example': ['93.184.216.34', '192.168.0.7'],
          },
        }),
      },
    });
  });
  after(async () => {
    await server.close();
    await fleet.close();
  });

  it('202 {message, domain}, lowercased and trimmed; the crawl then runs on its own', async () => {
    const crawled = server.app.crawler.crawled('ask-0.ap.test');
    const res = await request({ domain: '  ASK-0.AP.TEST ' });
    assert.equal(res.status, 202);
    const body = await json(res);
    assert.deepEqual(Object.keys(body).sort(), ['domain', 'message']);
    assert.equal(body.domain, 'ask-0.ap.test');
    await crawled;
    assert.equal((await server.db.query(`select 1 from publishers where domain = 'ask-0.ap.test'`)).length, 1);
    const [event] = await server.db.query<EventRow>(
      `select * from registry_events where event_type = 'publisher.adagents_discovered' and entity_id = 'ask-0.ap.test'`,
    );
    assertValidEvent(event!);
  });

  it('crawls a publisher first saved by hand, whose own file then takes over', async () => {
    const domain = fleet.domains[1]!;
    const admin = users['alice']!;
    await saveCommunity(
      server.db,
      domain,
      { authorized_agents: [{ url: 'https://community.example/ap' }], inventory: [], contact: null },
      admin,
      async () => {},
    );
    const crawled = server.app.crawler.crawled(domain);
    // The worker picks up saved entries every ten minutes.
    clock.advance(10 * 60_000);
    await crawled;
    assert.equal(
      (
        await server.db.query(`select 1 from properties where publisher_domain = $1 and source = 'adagents_json'`, [
          domain,
        ])
      ).length,
      1,
    );
  });

  it('400 for a malformed domain, and for one resolving to a private or reserved address; nothing is queued', async () => {
    for (const domain of ['not a domain', 'http://ask-1.ap.test/path', '10.0.0.1', '']) {
      const res = await request({ domain }, 'bob');
      assert.equal(res.status, 400, domain);
    }
    for (const [domain, code] of [
      ['intranet.example', 'domain_not_public'],
      ['metadata.example', 'domain_not_public'],
      ['split.example', 'domain_not_public'],
      ['nowhere.example', 'domain_unresolvable'],
    ]) {
      const res = await request({ domain }, 'bob');
      assert.equal(res.status, 400, domain);
      const body = await json(res);
      assert.equal(body.error, code);
      assert.equal(body.details[0].field, 'domain');
    }
    const queued = await server.db.query<{ domain: string }>(
      `select domain from crawl_targets where domain not like '%.ap.test'`,
    );
    assert.deepEqual(queued, []);
  });

  it('needs a credential and a JSON body', async () => {
    assert.equal((await postJson(`${server.url}${ENDPOINT}`, { domain: 'ask-2.ap.test' }, {})).status, 401);
    const form = await fetch(`${server.url}${ENDPOINT}`, {
      method: 'POST',
      headers: { ...as('alice'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'domain=ask-2.ap.test',
    });
    assert.equal(form.status, 415);
    assert.equal((await request({})).status, 400);
  });

  it('429 {error, retry_after} for a second request of a domain within 5 minutes, whoever asks, with the true wait', async () => {
    // 30 s before the clock's 5-minute boundary: a window aligned to the clock would end there.
    clock.set(Math.ceil(clock.now().getTime() / 300_000) * 300_000 + 300_000 - 30_000);
    assert.equal((await request({ domain: 'ask-3.ap.test' }, 'bob')).status, 202);
    clock.advance(146_000);
    const again = await request({ domain: 'Ask-3.ap.test' }, 'carol');
    assert.equal(again.status, 429, '2 min 26 s later');
    const body = await json(again);
    assert.equal(body.error, 'rate_limited');
    assert.equal(body.retry_after, 154);
    assert.equal(again.headers.get('retry-after'), '154');
    clock.advance(154_000);
    assert.equal((await request({ domain: 'ask-3.ap.test' }, 'carol')).status, 202, '5 minutes after the first');
  });

  it('a request refused with 400 does not use up the domain’s 5 minutes: the next asker gets the true answer', async () => {
    for (const user of ['alice', 'bob']) {
      const res = await request({ domain: 'intranet.example' }, user);
      assert.equal(res.status, 400, user);
      assert.equal((await json(res)).error, 'domain_not_public');
    }
    // And a request refused by the asker's own limit leaves the domain free for others (below).
  });

  it('concurrent requests each get the true answer: all refused for a domain refused, one queued and the rest told the whole wait', async () => {
    const refused = await Promise.all(Array.from({ length: 20 }, () => request({ domain: 'intranet.example' }, 'bob')));
    assert.deepEqual(
      refused.map((r) => r.status),
      Array(20).fill(400),
      'a refused request spends nobody’s window, even while it runs',
    );
    const raced = await Promise.all(Array.from({ length: 10 }, () => request({ domain: 'ask-2.ap.test' }, 'alice')));
    assert.deepEqual(raced.map((r) => r.status).sort(), [202, ...Array(9).fill(429)]);
    for (const res of raced.filter((r) => r.status === 429)) assert.equal((await json(res)).retry_after, 300);
  });

  it('429 after 30 requests in an hour from one user; the refused request leaves the domain for others', async () => {
    clock.advance(3_600_000);
    const statuses = [];
    for (const domain of fleet.domains.slice(4, 35)) statuses.push((await request({ domain }, 'carol')).status);
    assert.deepEqual(statuses, [...Array(30).fill(202), 429]);
    assert.equal(
      (await request({ domain: fleet.domains[34]! }, 'alice')).status,
      202,
      'carol’s refused request did not take the domain',
    );
    assert.equal((await request({ domain: fleet.domains[35]! }, 'alice')).status, 202);
  });
});
