import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { bearer, createApiKeyFor, proveOwnership, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { assertValidEvent, type EventRow } from '../properties/feed.ts';

/**
 * Enrollment (issue 19, section 1): an organization enrolls agents on hosts it has proven
 * control of; only it changes or removes them; the catalog shows each agent to the callers its
 * visibility allows; the public catalog's changes reach the feed.
 */
eachEngine('agent enrollment and visibility', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  let acme: Record<string, string>;
  let globex: Record<string, string>;
  let member: Record<string, string>;

  before(async () => {
    server = await startTestServer(engine, { deps: { clock } });
    await seedOrganization(server.db, { slug: 'acme' });
    await seedOrganization(server.db, { slug: 'globex' });
    await seedOrganization(server.db, { slug: 'paying', apiTier: true });
    [acme, globex, member] = [
      bearer(await createApiKeyFor(server.db, 'acme')),
      bearer(await createApiKeyFor(server.db, 'globex')),
      bearer(await createApiKeyFor(server.db, 'paying')),
    ];
    await proveOwnership(server.db, 'acme', 'acme-ads.example', clock.now());
  });
  after(async () => {
    await server.close();
  });

  const enroll = (body: Record<string, unknown>, as = acme) => postJson(`${server.url}/api/registry/agents`, body, as);
  const agentsEvents = async () =>
    (
      await server.db.query<EventRow>(
        `select event_id, event_type, entity_type, entity_id, payload, actor, created_at from registry_events where entity_type = 'agent' order by event_id`,
      )
    ).map((row) => {
      assertValidEvent(row);
      return row;
    });
  const list = async (as?: Record<string, string>, query = '') =>
    json(await fetch(`${server.url}/api/registry/agents${query}`, { headers: as ?? {} }));
  const urls = (body: Json) => (body.agents as Array<{ agent_url: string }>).map((a) => a.agent_url);

  describe('enrolling', () => {
    it('refuses a host the organization has not proven, and writes nothing', async () => {
      const res = await enroll({ agent_url: 'https://sales.unproven.example/mcp', type: 'sales', name: 'Unproven' });
      const body = await json(res);
      assert.equal(res.status, 403);
      assert.equal(body.error, 'ownership_required');
      assert.match(
        body.message,
        /acme cannot enroll an agent on sales\.unproven\.example: it has not proven control of sales\.unproven\.example \(or unproven\.example\)/,
      );
      assert.deepEqual(urls(await list(acme)), []);
    });

    it('enrolls on a proven domain’s subdomain, in canonical form, and tells the feed', async () => {
      const res = await enroll({
        agent_url: 'HTTPS://Sales.ACME-ads.example:443/mcp',
        type: 'sales',
        name: '  Acme sales  ',
        description: 'Display and video.',
      });
      const body = await json(res);
      assert.equal(res.status, 201, JSON.stringify(body));
      assert.deepEqual(
        [body.agent_url, body.name, body.type, body.visibility, body.operator.slug],
        ['https://sales.acme-ads.example/mcp', 'Acme sales', 'sales', 'public', 'acme'],
      );
      const [event] = (await agentsEvents()).filter((e) => e.entity_id === 'https://sales.acme-ads.example/mcp');
      assert.equal(event?.event_type, 'agent.profile_updated');
    });

    it('answers 409 for a URL already enrolled, whoever asks, and 400 for what is no agent URL', async () => {
      assert.equal(
        (await enroll({ agent_url: 'https://sales.acme-ads.example/mcp', type: 'sales', name: 'Again' })).status,
        409,
      );
      for (const agent_url of [
        'not a url',
        'ftp://acme-ads.example/agent',
        'https://user:pw@acme-ads.example/mcp',
        'https://10.0.0.1/mcp',
        'https://acme-ads.example/mcp#x',
      ]) {
        const res = await enroll({ agent_url, type: 'sales', name: 'Bad' });
        assert.equal(res.status, 400, agent_url);
        assert.equal((await json(res)).error, 'invalid_request', agent_url);
      }
      const res = await enroll({ agent_url: 'https://x.acme-ads.example/mcp', type: 'wizard', name: 'Bad type' });
      assert.equal(res.status, 400);
    });

    it('needs a credential', async () => {
      const res = await fetch(`${server.url}/api/registry/agents`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ agent_url: 'https://a.acme-ads.example/mcp', type: 'sales', name: 'A' }),
      });
      assert.equal(res.status, 401);
    });
  });

  describe('visibility', () => {
    before(async () => {
      for (const [name, visibility] of [
        ['members', 'members_only'],
        ['private', 'private'],
      ] as const) {
        const res = await enroll({
          agent_url: `https://${name}.acme-ads.example/mcp`,
          type: 'signals',
          name,
          visibility,
        });
        assert.equal(res.status, 201);
      }
    });

    it('shows anonymous callers the public agents, API-tier members also members_only, the owner also its private ones', async () => {
      assert.deepEqual(urls(await list()), ['https://sales.acme-ads.example/mcp']);
      assert.deepEqual(
        urls(await list(globex)),
        ['https://sales.acme-ads.example/mcp'],
        'a member without the API tier',
      );
      assert.deepEqual(urls(await list(member)), [
        'https://members.acme-ads.example/mcp',
        'https://sales.acme-ads.example/mcp',
      ]);
      assert.deepEqual(urls(await list(acme)), [
        'https://members.acme-ads.example/mcp',
        'https://private.acme-ads.example/mcp',
        'https://sales.acme-ads.example/mcp',
      ]);
      assert.deepEqual(urls(await list(acme, '?type=signals')), [
        'https://members.acme-ads.example/mcp',
        'https://private.acme-ads.example/mcp',
      ]);
    });

    it('keeps non-public agents out of the feed', async () => {
      const ids = (await agentsEvents()).map((e) => e.entity_id);
      assert.ok(
        !ids.includes('https://members.acme-ads.example/mcp') && !ids.includes('https://private.acme-ads.example/mcp'),
      );
    });
  });

  describe('changing and removing', () => {
    const at = (url: string) => `${server.url}/api/registry/agents?agent_url=${encodeURIComponent(url)}`;

    it('lets only the operating organization change or remove its agent', async () => {
      const patch = (url: string, body: unknown, as: Record<string, string>) =>
        fetch(at(url), {
          method: 'PATCH',
          headers: { ...as, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      assert.equal((await patch('https://sales.acme-ads.example/mcp', { name: 'Stolen' }, globex)).status, 403);
      assert.equal(
        (await patch('https://private.acme-ads.example/mcp', { name: 'Stolen' }, globex)).status,
        404,
        'another’s private agent is not revealed',
      );
      // A members_only agent is as unknown as no agent to a caller without the API tier, and named to one with it.
      const unseen = [
        await patch('https://members.acme-ads.example/mcp', { name: 'Stolen' }, globex),
        await fetch(at('https://members.acme-ads.example/mcp'), { method: 'DELETE', headers: globex }),
      ];
      const nothing = await json(await patch('https://nothing.acme-ads.example/mcp', { name: 'Stolen' }, globex));
      for (const res of unseen) {
        assert.equal(res.status, 404);
        const body = await json(res);
        assert.doesNotMatch(body.message, /operated by/, 'its operator is not named');
        assert.deepEqual(
          { ...body, message: body.message.replace('members', 'nothing') },
          nothing,
          'the answer for no agent at all',
        );
      }
      assert.equal(
        (await patch('https://members.acme-ads.example/mcp', { name: 'Stolen' }, member)).status,
        403,
        'an API-tier member sees it',
      );
      const res = await patch(
        'https://members.acme-ads.example/mcp',
        { visibility: 'public', name: 'Members, now public' },
        acme,
      );
      assert.equal(res.status, 200);
      assert.equal((await json(res)).visibility, 'public');
      assert.ok(urls(await list()).includes('https://members.acme-ads.example/mcp'));
      const joined = (await agentsEvents()).filter((e) => e.entity_id === 'https://members.acme-ads.example/mcp');
      assert.deepEqual(
        joined.map((e) => e.event_type),
        ['agent.profile_updated'],
        'it joined the public catalog',
      );
    });

    it('removes an agent with agent.removed, once', async () => {
      const remove = (url: string, as: Record<string, string>) => fetch(at(url), { method: 'DELETE', headers: as });
      assert.equal((await remove('https://sales.acme-ads.example/mcp', globex)).status, 403);
      const res = await remove('https://sales.acme-ads.example/mcp', acme);
      assert.equal(res.status, 200);
      assert.deepEqual(await json(res), { agent_url: 'https://sales.acme-ads.example/mcp', removed: true });
      assert.equal((await remove('https://sales.acme-ads.example/mcp', acme)).status, 404);
      const events = (await agentsEvents()).filter((e) => e.entity_id === 'https://sales.acme-ads.example/mcp');
      assert.deepEqual(
        events.map((e) => e.event_type),
        ['agent.profile_updated', 'agent.removed'],
      );
      assert.ok(!urls(await list()).includes('https://sales.acme-ads.example/mcp'));
    });
  });
});
