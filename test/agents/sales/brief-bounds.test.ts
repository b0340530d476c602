import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { textBounds } from '../../../src/agents/runtime/index.ts';
import { demoCatalogPath, loadCatalogFile, salesAgent } from '../../../src/agents/sales/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const PRODUCTS_RESPONSE = '/schemas/3.0.6/media-buy/get-products-response.json';
const ERROR = '/schemas/3.0.6/core/error.json';

/**
 * The reproduction of a denial of service: a 60,000-character one-word brief held the event loop
 * 2.7 s (100,000 characters: 21 s and 9.5 GB; 200 KB: INTERNAL_ERROR). A brief is now at most the
 * prose bound, advertised in the tool's input schema, and one at the bound answers as any other.
 */
eachEngine('sales agent: get_products brief bound', (engine) => {
  let server: TestServer;
  let client: Client;
  const call = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'get_products', arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    assert.deepEqual(validateSchema(result.isError ? ERROR : PRODUCTS_RESPONSE, payload).errors, []);
    return { isError: result.isError === true, payload };
  };

  before(async () => {
    const tenant = salesAgent({
      catalog: await loadCatalogFile(demoCatalogPath),
      base: () => server.url,
      credentials: [{ token: 'a-public-test-credential', name: 'public-test' }],
    });
    server = await startTestServer(engine, { deps: { tenants: [tenant] } });
    client = await mcpClient(server.url, '/sales', { authorization: 'Bearer a-public-test-credential' });
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('advertises the bound in the tool’s input schema', async () => {
    const { tools } = await client.listTools();
    const properties = (tools.find((t) => t.name === 'get_products')!.inputSchema as Json).properties as Json;
    assert.equal(properties.brief.maxLength, textBounds.prose);
    assert.equal(properties.refine.items.properties.ask.maxLength, textBounds.prose);
  });

  it('refuses a 60,000-character one-word brief with INVALID_REQUEST naming brief', async () => {
    const { isError, payload } = await call({ buying_mode: 'brief', brief: 'q'.repeat(60_000) });
    assert.equal(isError, true);
    assert.equal(payload.code, 'INVALID_REQUEST');
    assert.equal(payload.field, 'brief');
    assert.match(payload.message as string, /brief/);
  });

  it('refuses a brief one character over the bound, and answers one at the bound as a short one', async () => {
    const atBound = 'home cooking recipes '.repeat(textBounds.prose).slice(0, textBounds.prose);
    const over = await call({ brief: `${atBound}s` });
    assert.deepEqual([over.isError, over.payload.code, over.payload.field], [true, 'INVALID_REQUEST', 'brief']);
    const long = await call({ brief: atBound });
    const short = await call({ brief: 'home cooking recipes' });
    assert.equal(long.isError, false);
    const ids = (answer: Json) => (answer.products as Json[]).map((p) => p.product_id as string);
    assert.ok(ids(long.payload).length > 0);
    assert.deepEqual(ids(long.payload), ids(short.payload));
    assert.ok(
      (long.payload.products as Json[]).every((p) => typeof p.brief_relevance === 'string'),
      'each product says why it matched',
    );
  });

  it('answers a brief of the longest one word, and of many distinct words, normally', async () => {
    const oneWord = await call({ brief: 'q'.repeat(textBounds.prose) });
    assert.equal(oneWord.isError, false);
    assert.deepEqual(
      oneWord.payload.products,
      [],
      'a word no product has: no products, as for any brief matching nothing',
    );
    assert.match(
      oneWord.payload.message as string,
      /^No product matches the brief "q+…"/,
      'the brief is quoted clipped',
    );
    const many = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`)
      .join(' ')
      .slice(0, textBounds.prose);
    assert.equal((await call({ brief: many })).isError, false);
  });

  it('refuses a refine ask over the bound, naming it', async () => {
    const { isError, payload } = await call({
      buying_mode: 'refine',
      refine: [{ scope: 'request', ask: 'q'.repeat(textBounds.prose + 1) }],
    });
    assert.deepEqual([isError, payload.code, payload.field], [true, 'INVALID_REQUEST', 'refine[0].ask']);
  });
});
