import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { AuthorizationIndex } from '../../../src/registry/lookups/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const RESPONSE = '/schemas/3.0.6/media-buy/get-products-response.json';

/**
 * A publisher of the demo catalog in the registry's index, as a crawl would leave it: its
 * properties by id, with tags, all authorized to the demo's sales agent (a list holds only
 * properties some agent may sell).
 */
function indexDemoPublisher(index: AuthorizationIndex, domain: string, properties: Array<[string, string[]]>): void {
  index.apply('publisher', { publisher_domain: domain, status: 'active' });
  for (const [id, tags] of properties)
    index.apply('property', {
      property_rid: `${domain}-${id}`,
      publisher_domain: domain,
      identifiers: [{ type: 'domain', value: `${id}.${domain}` }],
      property: { property_id: id, property_type: 'website', name: id, tags },
      status: 'active',
    });
  index.apply('authorization', {
    id: `grant-${domain}`,
    publisher_domain: domain,
    agent_url: 'https://sales.example/mcp',
    agent_url_canonical: 'https://sales.example/mcp',
    authorization_type: 'publisher_properties',
    scopes: [{ target_publisher: domain, kind: 'all', value: '' }],
  });
}

/**
 * get_products with a buyer's property list: the deployment's sales agent reads the list from the
 * deployment's governance agent (its auth_token, or the buyer's own list) and keeps the products
 * that sell one of its properties, saying so with property_list_applied.
 */
eachEngine('sales agent: get_products narrowed by a property list', (engine) => {
  let server: TestServer;
  const clients: Client[] = [];
  const callerOf = async () => {
    const authorization = `Bearer ${await createApiKeyFor(server.db, (await seedOrganization(server.db)).slug)}`;
    const connect = async (path: string) => {
      const client = await mcpClient(server.url, path, { authorization });
      clients.push(client);
      return async (name: string, args: Json) => {
        const result = (await client.callTool({ name, arguments: args })) as Json;
        return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
      };
    };
    return { sales: await connect('/sales'), governance: await connect('/governance') };
  };

  before(async () => {
    server = await startTestServer(engine, { env: { AGENTS: 'true' } });
    const index = server.app.authorizationIndex.index;
    indexDemoPublisher(index, 'cityrecipes.example', [['recipes_web', ['food']]]);
    indexDemoPublisher(index, 'trailmag.example', [
      ['trail_web', ['premium']],
      ['trail_forum', ['community']],
    ]);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server?.close();
  });

  it('keeps the products that sell a listed property, by id or by tag', async () => {
    const buyer = await callerOf();
    const created = await buyer.governance('create_property_list', {
      idempotency_key: randomUUID(),
      name: 'Food and trail',
      base_properties: [
        { selection_type: 'publisher_ids', publisher_domain: 'cityrecipes.example', property_ids: ['recipes_web'] },
        { selection_type: 'publisher_tags', publisher_domain: 'trailmag.example', tags: ['premium'] },
      ],
    });
    const ref = {
      agent_url: `${server.url}/governance/mcp`,
      list_id: (created.payload.list as Json).list_id as string,
      auth_token: created.payload.auth_token as string,
    };
    const { isError, payload } = await buyer.sales('get_products', { buying_mode: 'wholesale', property_list: ref });
    assert.equal(isError, false, JSON.stringify(payload));
    assert.deepEqual(validateSchema(RESPONSE, payload).errors, []);
    assert.equal(payload.property_list_applied, true);
    const ids = (payload.products as Json[]).map((p) => p.product_id).sort();
    assert.deepEqual(ids, [
      'cr_recipe_display',
      'cr_recipe_display_auction',
      'cr_recipe_native',
      'cr_weeknight_dinners_sponsorship',
      'meridian_food_outdoor_lifestyle',
      'meridian_premium_video_network',
      'tm_outdoor_display',
      'tm_outdoor_video',
    ]);

    // Another buyer holding the token reads the list too (a seller is handed it); without it, not.
    const other = await callerOf();
    const shared = await other.sales('get_products', { buying_mode: 'wholesale', property_list: ref });
    assert.equal(shared.payload.property_list_applied, true);
    const { auth_token: _, ...withoutToken } = ref;
    const refused = await other.sales('get_products', { buying_mode: 'wholesale', property_list: withoutToken });
    assert.equal(refused.isError, true);
    assert.equal(refused.payload.code, 'REFERENCE_NOT_FOUND');
    // The owner needs no token for its own list.
    assert.equal(
      (await buyer.sales('get_products', { buying_mode: 'wholesale', property_list: withoutToken })).payload
        .property_list_applied,
      true,
    );
  });

  it('does not narrow by a list another agent holds, and says it did not', async () => {
    const buyer = await callerOf();
    const { payload } = await buyer.sales('get_products', {
      buying_mode: 'wholesale',
      property_list: { agent_url: 'https://governance.elsewhere.example/mcp', list_id: 'pl_1' },
    });
    assert.equal(payload.property_list_applied, undefined);
    assert.ok((payload.products as Json[]).length > 10);
  });
});
