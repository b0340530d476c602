import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { textBounds, textInput } from '../../../src/agents/runtime/index.ts';
import { publicTestCredential } from '../../../src/config.ts';
import { mcpClient } from '../../support/agents.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const { prose, name } = textBounds;
const creativeInput = (at: string) => ({
  [`${at}.name`]: name,
  [`${at}.tags[]`]: name,
  [`${at}.inputs[].name`]: name,
  [`${at}.inputs[].context_description`]: prose,
  [`${at}.inputs[].macros.*`]: prose,
});
const previewInputs = (at: string) => ({
  [`${at}.name`]: name,
  [`${at}.context_description`]: prose,
  [`${at}.macros.*`]: prose,
});

/** Every free-text argument of the test deployment's tasks, with the bound its tool must advertise (docs/decisions.md). */
const expected: Record<string, Record<string, Record<string, number>>> = {
  sales: {
    get_products: { brief: prose, 'refine[].ask': prose },
    list_creative_formats: { name_search: name },
    create_media_buy: { po_number: name, ...creativeInput('packages[].creatives[]') },
    update_media_buy: {
      cancellation_reason: 500,
      'packages[].cancellation_reason': 500,
      ...creativeInput('packages[].creatives[]'),
      ...creativeInput('new_packages[].creatives[]'),
    },
    sync_creatives: creativeInput('creatives[]'),
    list_creatives: { 'filters.name_contains': name },
  },
  signals: { get_signals: { signal_spec: prose } },
  creative: {
    list_creative_formats: { name_search: name },
    build_creative: { message: prose, ...previewInputs('preview_inputs[]'), 'macro_values.*': prose },
    preview_creative: { ...previewInputs('inputs[]'), ...previewInputs('requests[].inputs[]') },
    sync_creatives: creativeInput('creatives[]'),
    list_creatives: { 'filters.name_contains': name },
  },
  'creative-builder': {
    list_creative_formats: { name_search: name },
    build_creative: { message: prose, ...previewInputs('preview_inputs[]'), 'macro_values.*': prose },
  },
};

/** The schema at `path` (`a.b[].c.*`: properties, array items, additionalProperties). */
function schemaAt(schema: Json, path: string): Json | undefined {
  let at: Json | undefined = schema;
  for (const segment of path.split('.')) {
    const [key, ...arrays] = segment.split('[]');
    at = key === '*' ? at?.additionalProperties : at?.properties?.[key!];
    for (let i = 0; i < arrays.length; i++) at = at?.items;
  }
  return at;
}

describe('free-text arguments of the test deployment: each bound, and advertised', () => {
  let server: TestServer;
  const clients = new Map<string, Client>();

  before(async () => {
    server = await startTestServer(engines[0]!, { env: { AGENTS: 'true' } });
    for (const tenant of Object.keys(expected))
      clients.set(
        tenant,
        await mcpClient(server.url, `/${tenant}`, { authorization: `Bearer ${publicTestCredential}` }),
      );
  });
  after(async () => {
    for (const client of clients.values()) await client.close();
    await server.close();
  });

  it('advertises each bound in the tool’s input schema (tools/list)', async () => {
    for (const [tenant, tasks] of Object.entries(expected)) {
      const { tools } = await clients.get(tenant)!.listTools();
      for (const [task, fields] of Object.entries(tasks)) {
        const input = tools.find((t) => t.name === task)?.inputSchema as Json | undefined;
        assert.ok(input, `${tenant} serves ${task}`);
        for (const [path, bound] of Object.entries(fields)) {
          const field = schemaAt(input, path);
          assert.equal(field?.type, 'string', `${tenant} ${task} ${path} is advertised`);
          assert.equal(field?.maxLength, bound, `${tenant} ${task} ${path} is at most ${bound} characters`);
        }
      }
    }
  });

  it('refuses a longer value with INVALID_REQUEST naming the field, and takes one at the bound', async () => {
    const creative = clients.get('creative')!;
    const refused = (await creative.callTool({
      name: 'list_creative_formats',
      arguments: { name_search: 'x'.repeat(name + 1) },
    })) as Json;
    assert.equal(refused.isError, true);
    const error = JSON.parse(refused.content[0].text as string) as Json;
    assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'name_search']);
    const taken = (await creative.callTool({
      name: 'list_creative_formats',
      arguments: { name_search: 'x'.repeat(name) },
    })) as Json;
    assert.equal(taken.isError, undefined);
    assert.deepEqual((JSON.parse(taken.content[0].text as string) as Json).formats, []);
  });

  it('describes a bound in words too', () => {
    assert.deepEqual(textInput('prose', 'What the campaign wants, in words.'), {
      type: 'string',
      maxLength: prose,
      description: 'What the campaign wants, in words (at most 10,000 characters).',
    });
    assert.equal(textInput('name').description, `At most ${name.toLocaleString('en-US')} characters.`);
  });
});
