import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { parseCatalog, salesAgent } from '../../../src/agents/sales/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const reporting = `
    reporting_capabilities: { available_reporting_frequencies: [daily], expected_delay_minutes: 240, timezone: UTC, supports_webhooks: false, available_metrics: [impressions, spend], date_range_support: date_range }`;
const product = (
  id: string,
  name: string,
  description: string,
  channels: string,
  delivery: string,
  formats: string,
  pricing: string,
) => `
  - product_id: ${id}
    name: ${name}
    description: ${description}
    publisher_properties: [{ publisher_domain: dailyharbor.example, selection_type: all }]
    channels: [${channels}]
    format_ids: [${formats
      .split(',')
      .map((f) => `{ agent_url: /creative/mcp, id: ${f.trim()} }`)
      .join(', ')}]
    delivery_type: ${delivery}
    pricing_options: [${pricing}]${reporting}`;
const fixed = (id: string, cpm: number, minSpend = 0) =>
  `{ pricing_option_id: ${id}, pricing_model: cpm, currency: USD, fixed_price: ${cpm}, min_spend_per_package: ${minSpend} }`;
const auction = (id: string, floor: number) =>
  `{ pricing_option_id: ${id}, pricing_model: cpm, currency: USD, floor_price: ${floor} }`;

/** Five products a brief can tell apart. */
const catalogYaml = `products:${[
  product(
    'sports_ctv',
    'Live sports on connected TV',
    'Premium CTV spots around live football and basketball',
    'ctv',
    'guaranteed',
    'ctv_video_30s',
    fixed('ctv_fixed', 42, 25000),
  ),
  product(
    'recipes_display',
    'Recipe lovers display',
    'Banners beside home cooking recipes and kitchen guides',
    'display',
    'non_guaranteed',
    'display_300x250, display_728x90',
    auction('recipes_auction', 2.5),
  ),
  product(
    'news_video',
    'Morning news video',
    'Pre-roll on daily news clips',
    'olv',
    'non_guaranteed',
    'video_15s, video_30s',
    `${fixed('news_fixed', 18)}, ${auction('news_auction', 9)}`,
  ),
  product(
    'commute_audio',
    'Commuter audio',
    'Streaming audio spots for morning commuters',
    'streaming_audio',
    'guaranteed',
    'audio_30s',
    fixed('audio_fixed', 14, 5000),
  ),
  product(
    'kitchen_native',
    'Kitchen native',
    'Native in-feed units in the cooking section',
    'display',
    'guaranteed',
    'native_in_feed',
    fixed('native_fixed', 11),
  ),
].join('')}
`;

const PRODUCTS_RESPONSE = '/schemas/3.0.6/media-buy/get-products-response.json';

describe('sales agent: get_products', () => {
  let server: TestServer;
  let client: Client;
  const call = async (args: Record<string, unknown>): Promise<Json> => {
    const result = (await client.callTool({ name: 'get_products', arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    if (!result.isError) assert.deepEqual(validateSchema(PRODUCTS_RESPONSE, payload).errors, []);
    return result.isError ? { error: payload } : payload;
  };
  const ids = (answer: Json) => (answer.products as Json[]).map((p) => p.product_id as string);

  before(async () => {
    // The agent asks its base URL when answering, by then the server's.
    const tenant = salesAgent({
      catalog: parseCatalog(catalogYaml, 'test-catalog.yaml'),
      base: () => server.url,
      credentials: [{ token: 'a-public-test-credential', name: 'public-test' }],
    });
    server = await startTestServer(engines[0]!, { deps: { tenants: [tenant] } });
    client = await mcpClient(server.url, '/sales', { authorization: 'Bearer a-public-test-credential' });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('ranks the products a brief matches, saying why, and only those', async () => {
    const answer = await call({
      brief: 'Sports fans watching connected TV',
      brand: { domain: 'halcyon-motors.example' },
    });
    assert.deepEqual(ids(answer), ['sports_ctv']);
    const [first] = answer.products as Json[];
    assert.match(first!.brief_relevance as string, /sports/);
    assert.equal(answer.sandbox, false);
  });

  it('puts the best match first when a brief matches several', async () => {
    const answer = await call({ buying_mode: 'brief', brief: 'home cooking recipes' });
    assert.equal(ids(answer)[0], 'recipes_display');
    assert.ok(ids(answer).includes('kitchen_native'), 'the cooking section matches too');
  });

  it('forgives a typo when nothing matches as written', async () => {
    assert.deepEqual(ids(await call({ brief: 'comuters' })), ['commute_audio']);
  });

  it('answers no products, saying nothing matched and what to try, when a brief matches nothing', async () => {
    const answer = await call({ brief: 'zzz qqq' });
    assert.deepEqual(ids(answer), []);
    assert.match(answer.message as string, /^No product matches the brief "zzz qqq"\. Try .*"wholesale"/);
    assert.equal(answer.proposals, undefined, 'no plan over nothing');
  });

  it('answers products with their format ids made absolute at this deployment', async () => {
    const answer = await call({ buying_mode: 'wholesale' });
    const formats = (answer.products as Json[]).flatMap((p) => p.format_ids as Json[]);
    assert.ok(formats.every((f) => f.agent_url === `${server.url}/creative/mcp`));
  });

  it('narrows by filters', async () => {
    assert.deepEqual(ids(await call({ buying_mode: 'wholesale', filters: { delivery_type: 'guaranteed' } })), [
      'sports_ctv',
      'commute_audio',
      'kitchen_native',
    ]);
    assert.deepEqual(ids(await call({ buying_mode: 'wholesale', filters: { channels: ['olv', 'streaming_audio'] } })), [
      'news_video',
      'commute_audio',
    ]);
    assert.deepEqual(ids(await call({ buying_mode: 'wholesale', filters: { is_fixed_price: false } })), [
      'recipes_display',
      'news_video',
    ]);
    assert.deepEqual(
      ids(await call({ buying_mode: 'wholesale', filters: { budget_range: { max: 10000, currency: 'USD' } } })),
      ['recipes_display', 'news_video', 'commute_audio', 'kitchen_native'],
    );
    const formatId = { agent_url: `${server.url}/creative/mcp`, id: 'video_30s' };
    assert.deepEqual(ids(await call({ buying_mode: 'wholesale', filters: { format_ids: [formatId] } })), [
      'news_video',
    ]);
  });

  it('says which filters it could not evaluate instead of answering nothing', async () => {
    const answer = await call({
      buying_mode: 'wholesale',
      filters: { countries: ['US'], delivery_type: 'non_guaranteed' },
    });
    assert.deepEqual(ids(answer), ['recipes_display', 'news_video']);
    const errors = answer.errors as Json[];
    assert.deepEqual(
      errors.map((e) => [e.code, e.field]),
      [['UNSUPPORTED_FEATURE', 'filters.countries']],
    );
  });

  it('puts preferred delivery types first without dropping the others', async () => {
    const answer = await call({ buying_mode: 'wholesale', preferred_delivery_types: ['non_guaranteed'] });
    assert.deepEqual(ids(answer), ['recipes_display', 'news_video', 'sports_ctv', 'commute_audio', 'kitchen_native']);
  });

  it('pages with an opaque cursor', async () => {
    const first = await call({ buying_mode: 'wholesale', pagination: { max_results: 2 } });
    assert.deepEqual(ids(first), ['sports_ctv', 'recipes_display']);
    const pagination = first.pagination as Json;
    assert.equal(pagination.has_more, true);
    assert.equal(pagination.total_count, 5);
    const third = await call({
      buying_mode: 'wholesale',
      pagination: {
        max_results: 2,
        cursor: (
          (await call({ buying_mode: 'wholesale', pagination: { max_results: 2, cursor: pagination.cursor } }))
            .pagination as Json
        ).cursor,
      },
    });
    assert.deepEqual(ids(third), ['kitchen_native']);
    assert.equal((third.pagination as Json).has_more, false);
    const bad = await call({ buying_mode: 'wholesale', pagination: { cursor: 'not-ours' } });
    assert.equal((bad.error as Json).code, 'INVALID_REQUEST');
    assert.equal((bad.error as Json).field, 'pagination.cursor');
  });

  it('answers only the asked fields, beside those every product carries', async () => {
    const answer = await call({ buying_mode: 'wholesale', fields: ['channels'] });
    const [first] = answer.products as Json[];
    assert.deepEqual(first!.channels, ['ctv']);
    assert.equal(first!.reporting_capabilities !== undefined, true, 'required by core/product.json');
  });

  describe('refine', () => {
    it('applies each change request and answers each by position', async () => {
      const answer = await call({
        buying_mode: 'refine',
        refine: [
          { scope: 'request', ask: 'more audio please' },
          { scope: 'product', product_id: 'sports_ctv', action: 'include' },
          { scope: 'product', product_id: 'commute_audio', action: 'omit' },
          { scope: 'product', product_id: 'no_such_product' },
          { scope: 'proposal', proposal_id: 'p1', action: 'finalize' },
        ],
      });
      assert.deepEqual(ids(answer), ['sports_ctv']);
      assert.deepEqual(
        (answer.refinement_applied as Json[]).map((r) => [r.scope, r.status]),
        [
          ['request', 'applied'],
          ['product', 'applied'],
          ['product', 'applied'],
          ['product', 'unable'],
          ['proposal', 'unable'],
        ],
      );
      assert.match((answer.refinement_applied as Json[])[4]!.notes as string, /No proposal p1 of yours/);
    });

    it('finds more like a product', async () => {
      const answer = await call({
        buying_mode: 'refine',
        refine: [
          { scope: 'request', ask: 'recipes' },
          { scope: 'product', product_id: 'recipes_display', action: 'more_like_this' },
        ],
      });
      assert.ok(ids(answer).includes('kitchen_native'));
    });
  });

  describe('mistakes', () => {
    it('refuses a brief in a wholesale request', async () => {
      const { error } = await call({ buying_mode: 'wholesale', brief: 'anything' });
      assert.equal((error as Json).code, 'INVALID_REQUEST');
      assert.equal((error as Json).field, 'brief');
    });

    it('refuses refine without its change requests, and refine[] in another mode', async () => {
      assert.equal(((await call({ buying_mode: 'refine' })).error as Json).field, 'refine');
      assert.equal(
        ((await call({ buying_mode: 'brief', refine: [{ scope: 'request', ask: 'x' }] })).error as Json).field,
        'refine',
      );
    });

    it('checks filters against the published schema, naming the field', async () => {
      const { error } = await call({ buying_mode: 'wholesale', filters: { channels: ['television'] } });
      assert.equal((error as Json).code, 'INVALID_REQUEST');
      assert.match((error as Json).field as string, /^filters\.channels/);
    });

    it('refuses a format id given as a bare string in the filters with INVALID_FORMAT_ID', async () => {
      const { error } = await call({ buying_mode: 'wholesale', filters: { format_ids: ['video_30s'] } });
      assert.equal((error as Json).code, 'INVALID_FORMAT_ID');
      assert.equal((error as Json).field, 'filters.format_ids[0]');
    });

    it('refuses an end date before the start date', async () => {
      const { error } = await call({
        buying_mode: 'wholesale',
        filters: { start_date: '2026-12-10', end_date: '2026-12-01' },
      });
      assert.equal((error as Json).code, 'VALIDATION_ERROR');
      assert.equal((error as Json).field, 'filters.end_date');
    });
  });
});
