import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { validateSchema } from '../../../../src/protocol/schemas.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import { indexCollection } from '../../../support/indexed-publisher.ts';
import type { TestServer } from '../../../support/server.ts';
import { TestReceiver } from '../../../support/webhooks.ts';
import { idempotent, organizationCaller, runPass, startGovernance, type Caller } from '../harness.ts';

const tvma = { system: 'tv_parental', rating: 'TV-MA' };
const tvpg = { system: 'tv_parental', rating: 'TV-PG' };

eachEngine('governance agent: collection lists over MCP', (engine) => {
  const clock = new ManualClock();
  const receiver = new TestReceiver();
  let server: TestServer;
  let buyer: Caller;
  let other: Caller;
  const index = () => server.app.authorizationIndex.index;

  before(async () => {
    server = await startGovernance(engine, clock, receiver);
    // Two publishers' catalogs as a crawl would leave them in the index.
    index().apply('publisher', { publisher_domain: 'streamhaus.example', status: 'active' });
    index().apply('publisher', { publisher_domain: 'pods.example', status: 'active' });
    const drama = { kind: 'series', genre: ['drama'], genre_taxonomy: 'iab_content_3.0' };
    indexCollection(index(), 'streamhaus.example', 'night-shift', [{ type: 'imdb_id', value: 'tt0000001' }], {
      ...drama,
      genre: ['drama', 'crime'],
      content_rating: tvma,
      production_quality: 'professional',
    });
    indexCollection(index(), 'streamhaus.example', 'family-hour', [{ type: 'imdb_id', value: 'tt0000002' }], {
      ...drama,
      content_rating: tvpg,
      production_quality: 'professional',
    });
    indexCollection(index(), 'streamhaus.example', 'untagged', [{ type: 'imdb_id', value: 'tt0000003' }], {
      kind: 'series',
    });
    indexCollection(index(), 'pods.example', 'daily', [{ type: 'apple_podcast_id', value: '1001' }], {
      kind: 'publication',
      genre: ['news'],
      genre_taxonomy: 'iab_content_3.0',
    });
    buyer = await organizationCaller(server);
    other = await organizationCaller(server);
  });
  after(async () => {
    await buyer?.client.close();
    await other?.client.close();
    await server?.close();
    await receiver.close();
  });

  const names = (answer: Json) => (answer.collections as Json[]).map((c) => c.name as string);

  it('resolves sources and filters from the registry’s collections, naming what it could not confirm', async () => {
    const created = await buyer.call(
      'create_collection_list',
      idempotent({
        name: 'Streamhaus series, no TV-MA',
        base_collections: [
          {
            selection_type: 'publisher_genres',
            publisher_domain: 'streamhaus.example',
            genres: ['drama'],
            genre_taxonomy: 'iab_content_3.0',
          },
          {
            selection_type: 'distribution_ids',
            identifiers: [
              { type: 'imdb_id', value: 'tt0000003' },
              { type: 'imdb_id', value: 'tt9999999' },
            ],
          },
        ],
        filters: { content_ratings_exclude: [tvma], kinds: ['series'] },
        brand: { domain: 'novamotors.example' },
      }),
    );
    assert.match(created.auth_token as string, /^[A-Za-z0-9_-]{43}$/);
    const list = created.list as Json;
    assert.match(list.list_id as string, /^cl_/);
    assert.equal(list.cache_duration_hours, 168);
    const read = await buyer.call('get_collection_list', { list_id: list.list_id });
    assert.deepEqual(names(read), ['family-hour of streamhaus.example', 'untagged of streamhaus.example']);
    assert.equal((read.list as Json).collection_count, 2);
    assert.deepEqual((read.collections as Json[])[0], {
      collection_rid: 'streamhaus.example-family-hour',
      name: 'family-hour of streamhaus.example',
      distribution_ids: [{ type: 'imdb_id', value: 'tt0000002' }],
      content_rating: tvpg,
      genre: ['drama'],
      genre_taxonomy: 'iab_content_3.0',
      kind: 'series',
    });
    assert.deepEqual(read.coverage_gaps, {
      content_rating: [{ type: 'imdb_id', value: 'tt0000003' }],
      distribution_ids: [{ type: 'imdb_id', value: 'tt9999999' }],
    });
    assert.equal(
      Date.parse(read.cache_valid_until as string) - Date.parse(read.resolved_at as string),
      168 * 3_600_000,
    );
  });

  it('applies include before exclude, and follows the registry as collections and publishers change', async () => {
    const created = await buyer.call(
      'create_collection_list',
      idempotent({
        name: 'Drama, not crime',
        filters: { genres_include: ['drama', 'news'], genres_exclude: ['crime'], genre_taxonomy: 'iab_content_3.0' },
      }),
    );
    const listId = (created.list as Json).list_id as string;
    const read = () => buyer.call('get_collection_list', { list_id: listId });
    assert.deepEqual(names(await read()), [
      'family-hour of streamhaus.example',
      'untagged of streamhaus.example',
      'daily of pods.example',
    ]);
    indexCollection(index(), 'pods.example', 'daily', [{ type: 'apple_podcast_id', value: '1001' }], {}, 'removed');
    index().apply('publisher', { publisher_domain: 'streamhaus.example', status: 'stale' });
    assert.deepEqual(names(await read()), [], 'a removed collection and a stale publisher’s leave at the next read');
    index().apply('publisher', { publisher_domain: 'streamhaus.example', status: 'active' });
    assert.equal(((await read()).list as Json).collection_count, 2);
  });

  it('updates, lists and deletes only the caller’s own lists, apart from its property lists', async () => {
    const created = await buyer.call('create_collection_list', idempotent({ name: 'Podcasts' }));
    const listId = (created.list as Json).list_id as string;
    const updated = await buyer.call(
      'update_collection_list',
      idempotent({ list_id: listId, filters: { kinds: ['publication'] } }),
    );
    assert.deepEqual((updated.list as Json).filters, { kinds: ['publication'] });
    assert.deepEqual(
      ((await buyer.call('list_collection_lists', { name_contains: 'podc' })).lists as Json[]).map((l) => l.list_id),
      [listId],
    );
    assert.deepEqual((await buyer.call('list_property_lists', {})).lists, [], 'a collection list is no property list');
    assert.equal((await buyer.fail('get_property_list', { list_id: listId })).code, 'REFERENCE_NOT_FOUND');
    assert.deepEqual((await other.call('list_collection_lists', {})).lists, []);
    assert.equal((await other.fail('get_collection_list', { list_id: listId })).code, 'REFERENCE_NOT_FOUND');
    const deleted = await buyer.call('delete_collection_list', idempotent({ list_id: listId }));
    assert.deepEqual([deleted.deleted, deleted.list_id], [true, listId]);
    assert.equal((await buyer.fail('get_collection_list', { list_id: listId })).code, 'REFERENCE_NOT_FOUND');
  });

  it('announces a change of members once, as collection_list_changed', async () => {
    const created = await buyer.call(
      'create_collection_list',
      idempotent({
        name: 'Night shift',
        base_collections: [
          {
            selection_type: 'publisher_collections',
            publisher_domain: 'streamhaus.example',
            collection_ids: ['night-shift'],
          },
        ],
      }),
    );
    const listId = (created.list as Json).list_id as string;
    await buyer.call('update_collection_list', idempotent({ list_id: listId, webhook_url: `${receiver.url}/lists` }));
    await runPass(server, 'list-changes');
    const before = receiver.events.length;
    indexCollection(
      index(),
      'streamhaus.example',
      'night-shift',
      [{ type: 'imdb_id', value: 'tt0000001' }],
      {},
      'removed',
    );
    await runPass(server, 'list-changes');
    await receiver.until(() => receiver.events.some((e) => (e as Json).list_id === listId));
    await runPass(server, 'list-changes');
    const events = receiver.events.slice(before).filter((e) => (e as Json).list_id === listId) as Json[];
    assert.equal(events.length, 1);
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/collection/collection-list-changed-webhook.json', events[0]).errors,
      [],
    );
    assert.equal(events[0]!.event, 'collection_list_changed');
    assert.deepEqual(events[0]!.change_summary, { total_collections: 0 });
  });
});
