import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { listCreativeFormatsTask, standardFormats } from '../../../src/agents/formats/index.ts';
import type { Tenant } from '../../../src/agents/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const creativeAgentUrl = 'https://ap.example/creative/mcp';
const tenant: Tenant = {
  name: 'formats',
  path: '/formats',
  description: 'Lists the standard creative formats.',
  protocols: ['media_buy'],
  tasks: [
    listCreativeFormatsTask({
      formats: () => standardFormats(creativeAgentUrl),
      creativeAgents: () => [
        {
          agent_url: creativeAgentUrl,
          agent_name: 'Reference creative agent',
          capabilities: ['validation', 'preview'],
        },
      ],
    }),
  ],
};

// The task reads no table, so one engine shows all there is to see.
describe('list_creative_formats over MCP', () => {
  let server: TestServer;
  let client: Client;
  const call = async (args: Record<string, unknown>) => {
    const result = (await client.callTool({ name: 'list_creative_formats', arguments: args })) as Json;
    return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
  };

  before(async () => {
    server = await startTestServer(engines[0]!, { deps: { tenants: [tenant] } });
    client = await mcpClient(server.url, '/formats');
  });
  after(async () => {
    await client.close();
    await server.close();
  });

  it('is listed with its filters, an input schema that stands alone', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'list_creative_formats')!;
    assert.ok(tool);
    assert.equal(JSON.stringify(tool.inputSchema).includes('$ref'), false);
    assert.ok(
      [
        'format_ids',
        'type',
        'asset_types',
        'max_width',
        'max_height',
        'is_responsive',
        'name_search',
        'pagination',
      ].every((name) => name in tool.inputSchema.properties!),
    );
  });

  it('answers every standard format and the creative agents, valid against the published responses', async () => {
    const { isError, payload } = await call({});
    assert.equal(isError, false);
    for (const schema of [
      '/schemas/3.0.6/media-buy/list-creative-formats-response.json',
      '/schemas/3.0.6/creative/list-creative-formats-response.json',
    ]) {
      assert.deepEqual(validateSchema(schema, payload).errors, [], schema);
    }
    assert.deepEqual(payload.formats, standardFormats(creativeAgentUrl));
    assert.deepEqual(payload.creative_agents, [
      { agent_url: creativeAgentUrl, agent_name: 'Reference creative agent', capabilities: ['validation', 'preview'] },
    ]);
    assert.deepEqual(payload.pagination, { has_more: false, total_count: 26 });
  });

  it('filters as asked', async () => {
    const { payload } = await call({
      type: 'display',
      max_width: 320,
      is_responsive: false,
      format_ids: [
        { agent_url: creativeAgentUrl, id: 'display_320x50' },
        { agent_url: 'https://AP.example/creative/', id: 'html5_320x50' },
        { agent_url: creativeAgentUrl, id: 'video_15s' },
      ],
    });
    assert.deepEqual(
      payload.formats.map((f: Json) => f.format_id.id),
      ['display_320x50', 'html5_320x50'],
    );
    assert.deepEqual(payload.pagination, { has_more: false, total_count: 2 });
  });

  it('answers a page at a time, each cursor leading to the next page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    const sizes: number[] = [];
    do {
      const { payload } = await call({ pagination: { max_results: 4, ...(cursor ? { cursor } : {}) } });
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/media-buy/list-creative-formats-response.json', payload).errors,
        [],
      );
      assert.equal(payload.pagination.total_count, 26);
      sizes.push(payload.formats.length);
      seen.push(...payload.formats.map((f: Json) => f.format_id.id));
      cursor = payload.pagination.cursor;
      assert.equal(payload.pagination.has_more, cursor !== undefined);
    } while (cursor);
    assert.deepEqual(sizes, [4, 4, 4, 4, 4, 4, 2]);
    assert.deepEqual(
      seen,
      standardFormats(creativeAgentUrl).map((f) => f.format_id.id),
    );
  });

  it('refuses a cursor it did not give, naming it', async () => {
    const { isError, payload } = await call({ pagination: { cursor: 'not-a-cursor' } });
    assert.equal(isError, true);
    assert.equal(payload.code, 'INVALID_REQUEST');
    assert.equal(payload.field, 'pagination.cursor');
  });

  it('refuses a format id given as a bare string with INVALID_FORMAT_ID, naming the entry', async () => {
    const { isError, payload } = await call({ format_ids: ['display_300x250'] });
    assert.equal(isError, true);
    assert.equal(payload.code, 'INVALID_FORMAT_ID');
    assert.equal(payload.field, 'format_ids[0]');
    assert.match(payload.message, /agent_url and id/);
  });

  it('refuses filters outside the published request', async () => {
    for (const [args, field] of [
      [{ type: 'native' }, 'type'],
      [{ asset_types: ['hologram'] }, 'asset_types[0]'],
      [{ max_width: '300' }, 'max_width'],
      [{ format_ids: [{ agent_url: creativeAgentUrl }] }, 'format_ids[0].id'],
      [{ pagination: { max_results: 101 } }, 'pagination.max_results'],
    ] as const) {
      const { isError, payload } = await call(args);
      assert.equal(isError, true, JSON.stringify(args));
      assert.equal(payload.code, 'INVALID_REQUEST', JSON.stringify(args));
      assert.equal(payload.field, field, JSON.stringify(args));
    }
  });
});
