import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import { indexedAgent, indexPublisher } from '../../../support/indexed-publisher.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { idempotent, organizationCaller, startGovernance, type Caller } from '../harness.ts';

eachEngine('governance agent: property lists over MCP', (engine) => {
  const clock = new ManualClock();
  let server: TestServer;
  let buyer: Caller;
  let other: Caller;

  const publisher = (domain: string, count: number) =>
    indexPublisher(server.app.authorizationIndex.index, domain, count);

  before(async () => {
    server = await startGovernance(engine, clock);
    // The index as a crawl would leave it (applied directly: this suite is about the lists).
    publisher('news.example', 6);
    publisher('sport.example', 4);
    buyer = await organizationCaller(server);
    other = await organizationCaller(server);
  });
  after(async () => {
    await buyer?.client.close();
    await other?.client.close();
    await server?.close();
  });

  it('creates a list, resolves its members from the registry, and follows a publisher going stale', async () => {
    const created = await buyer.call(
      'create_property_list',
      idempotent({
        name: 'Premium news and sport',
        base_properties: [
          { selection_type: 'publisher_tags', publisher_domain: 'news.example', tags: ['premium'] },
          { selection_type: 'publisher_ids', publisher_domain: 'sport.example', property_ids: ['prop_0', 'prop_1'] },
        ],
      }),
    );
    assert.match(created.auth_token as string, /^[A-Za-z0-9_-]{43}$/);
    const listId = (created.list as Json).list_id as string;
    const read = async () => buyer.call('get_property_list', { list_id: listId });
    const first = await read();
    assert.deepEqual(
      (first.identifiers as Json[]).map((i) => i.value),
      ['s0.news.example', 's2.news.example', 's4.news.example', 's0.sport.example', 's1.sport.example'],
    );
    assert.equal((first.list as Json).property_count, 5);
    server.app.authorizationIndex.index.apply('publisher', {
      publisher_domain: 'sport.example',
      status: 'stale',
      reason: 'adagents.json answered HTTP 404',
    });
    assert.deepEqual(
      ((await read()).identifiers as Json[]).map((i) => i.value),
      ['s0.news.example', 's2.news.example', 's4.news.example'],
      'the stale publisher’s properties left the list at the next read',
    );
    server.app.authorizationIndex.index.apply('publisher', { publisher_domain: 'sport.example', status: 'active' });
    const paged = await buyer.call('get_property_list', { list_id: listId, pagination: { max_results: 2 } });
    assert.equal((paged.identifiers as Json[]).length, 2);
    assert.equal((paged.pagination as Json).has_more, true);
  });

  it('updates, lists and deletes only the caller’s own lists', async () => {
    const created = await buyer.call('create_property_list', idempotent({ name: 'Everything' }));
    const listId = (created.list as Json).list_id as string;
    const everything = await buyer.call('get_property_list', { list_id: listId, pagination: { max_results: 100 } });
    assert.equal((everything.list as Json).property_count, 10, 'no sources: every registry property');
    const updated = await buyer.call(
      'update_property_list',
      idempotent({ list_id: listId, filters: { exclude_identifiers: [{ type: 'domain', value: 's0.news.example' }] } }),
    );
    assert.equal((updated.list as Json).name, 'Everything');
    assert.equal(((await buyer.call('get_property_list', { list_id: listId })).list as Json).property_count, 9);
    for (const webhook_url of ['not a url', 'ftp://lists.example/changed'])
      assert.equal(
        (await buyer.fail('update_property_list', idempotent({ list_id: listId, webhook_url }))).field,
        'webhook_url',
      );
    const hooked = await buyer.call(
      'update_property_list',
      idempotent({ list_id: listId, webhook_url: 'https://buyer.example/lists' }),
    );
    assert.equal((hooked.list as Json).webhook_url, 'https://buyer.example/lists');
    const unhooked = await buyer.call('update_property_list', idempotent({ list_id: listId, webhook_url: '' }));
    assert.equal((unhooked.list as Json).webhook_url, undefined, 'an empty webhook_url removes it');
    const mine = await buyer.call('list_property_lists', { name_contains: 'every' });
    assert.deepEqual(
      (mine.lists as Json[]).map((l) => l.list_id),
      [listId],
    );
    assert.deepEqual((await other.call('list_property_lists', {})).lists, []);
    const foreign = await other.fail('get_property_list', { list_id: listId });
    assert.equal(foreign.code, 'REFERENCE_NOT_FOUND');
    assert.equal(
      (await other.fail('delete_property_list', idempotent({ list_id: listId }))).code,
      'REFERENCE_NOT_FOUND',
    );
    assert.deepEqual(
      await buyer.call('delete_property_list', idempotent({ list_id: listId })).then((d) => [d.deleted, d.list_id]),
      [true, listId],
    );
    assert.equal((await buyer.fail('get_property_list', { list_id: listId })).code, 'REFERENCE_NOT_FOUND');
  });

  it('validates delivery records against a list, with each sales agent’s authorization from the registry', async () => {
    const created = await buyer.call(
      'create_property_list',
      idempotent({
        name: 'News premium',
        base_properties: [{ selection_type: 'publisher_tags', publisher_domain: 'news.example', tags: ['premium'] }],
      }),
    );
    const listId = (created.list as Json).list_id as string;
    const record = (value: string, impressions: number, sales_agent_url?: string) => ({
      identifier: { type: 'domain', value },
      impressions,
      ...(sales_agent_url ? { sales_agent_url } : {}),
    });
    const answer = await buyer.call('validate_property_delivery', {
      list_id: listId,
      records: [
        record('s0.news.example', 1000, indexedAgent),
        record('s1.news.example', 200, 'https://rogue.example/mcp'),
        record('nowhere.example', 50),
      ],
    });
    assert.equal(answer.compliant, false);
    assert.deepEqual(answer.summary, {
      total_records: 3,
      total_impressions: 1250,
      compliant_records: 1,
      compliant_impressions: 1000,
      non_compliant_records: 1,
      non_compliant_impressions: 200,
      not_covered_records: 0,
      not_covered_impressions: 0,
      unidentified_records: 1,
      unidentified_impressions: 50,
    });
    assert.deepEqual(
      (answer.results as Json[]).map((r) => [
        r.identifier.value,
        r.status,
        (r.authorization as Json | undefined)?.status,
      ]),
      [
        ['s1.news.example', 'non_compliant', 'unauthorized'],
        ['nowhere.example', 'unidentified', undefined],
      ],
      'compliant records only when asked',
    );
    assert.deepEqual((answer.authorization_summary as Json).authorized_records, 1);
  });
});
