import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../../src/config.ts';
import { a2aClient, callSkill, mcpClient } from '../../support/agents.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const LONE = 'must be well-formed Unicode text (it holds a lone UTF-16 surrogate)';
const bearer = { authorization: `Bearer ${publicTestCredential}` };

/**
 * Text no store can hold (a lone UTF-16 surrogate, NUL) in a mutating task's arguments is refused
 * before the idempotency hash or a handler sees it, over every transport, in the protocol's own
 * envelope: INVALID_REQUEST naming the argument, correctable, and nothing written.
 */
eachEngine('agent arguments with values no store can hold', (engine) => {
  let server: TestServer;
  let sales: Client;
  let signals: Client;
  const written = async () =>
    (
      await server.db.query<{ n: number }>(
        `select (select count(*) from idempotency_records) + (select count(*) from sales_media_buys) + (select count(*) from signal_activations) as n`,
      )
    )[0]!.n;

  before(async () => {
    server = await startTestServer(engine, { env: { AGENTS: 'true' } });
    sales = await mcpClient(server.url, '/sales', bearer);
    signals = await mcpClient(server.url, '/signals', bearer);
  });
  after(async () => {
    await sales.close();
    await signals.close();
    await server.close();
  });

  const refusal = async (client: Client, name: string, args: Json): Promise<Json> => {
    const result = (await client.callTool({ name, arguments: args })) as Json;
    assert.equal(result.isError, true, JSON.stringify(result));
    return (result.structuredContent as Json).ap_error as Json;
  };

  it('over MCP: create_media_buy, update_media_buy and activate_signal answer INVALID_REQUEST naming the argument', async () => {
    const before = await written();
    const cases: Array<[Client, string, Json, string]> = [
      [
        sales,
        'create_media_buy',
        {
          idempotency_key: randomUUID(),
          po_number: 'PO \ud800',
          brand: { domain: 'acme.example' },
          packages: [],
          start_time: 'asap',
          end_time: '2030-01-01T00:00:00Z',
        },
        'po_number',
      ],
      [
        sales,
        'update_media_buy',
        { idempotency_key: randomUUID(), media_buy_id: 'mb_1', packages: [{ package_id: 'p\udc00', paused: true }] },
        'packages[0].package_id',
      ],
      [
        signals,
        'activate_signal',
        {
          idempotency_key: randomUUID(),
          signal_agent_segment_id: '\ud800',
          destinations: [{ type: 'platform', platform: 'alpha-dsp' }],
        },
        'signal_agent_segment_id',
      ],
      [
        sales,
        'create_media_buy',
        {
          idempotency_key: randomUUID(),
          po_number: 'PO \u0000',
          brand: { domain: 'acme.example' },
          packages: [],
          start_time: 'asap',
          end_time: '2030-01-01T00:00:00Z',
        },
        'po_number',
      ],
    ];
    for (const [client, name, args, field] of cases) {
      const error = await refusal(client, name, args);
      assert.equal(error.code, 'INVALID_REQUEST', name);
      assert.equal(error.field, field, name);
      assert.equal(error.recovery, 'correctable', name);
    }
    assert.equal(await written(), before);
  });

  it('over A2A and plain HTTP alike', async () => {
    const before = await written();
    const a2a = await a2aClient(server.url, '/signals', bearer);
    const answer = await callSkill(a2a, 'activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: 'x\ud800',
      destinations: [{ type: 'platform', platform: 'alpha-dsp' }],
    });
    assert.deepEqual(answer.error, {
      code: 'INVALID_REQUEST',
      message: `Invalid argument signal_agent_segment_id: ${LONE}.`,
      field: 'signal_agent_segment_id',
      recovery: 'correctable',
    });
    const res = await fetch(`${server.url}/signals/tasks/activate_signal`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body:
        '{"idempotency_key":"' +
        randomUUID() +
        '","signal_agent_segment_id":"\\ud800","destinations":[{"type":"platform","platform":"alpha-dsp"}]}',
    });
    assert.equal(res.status, 400);
    assert.deepEqual(((await res.json()) as Json).errors, [
      {
        code: 'INVALID_REQUEST',
        message: `Invalid argument signal_agent_segment_id: ${LONE}.`,
        field: 'signal_agent_segment_id',
        recovery: 'correctable',
      },
    ]);
    // A number JSON can carry but not write back (1e999 parses as Infinity), in a field no schema types: the hash would throw.
    const infinite = await fetch(`${server.url}/creative-builder/tasks/build_creative`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: '{"idempotency_key":"' + randomUUID() + '","message":"a banner","item_limit":1e999}',
    });
    assert.equal(infinite.status, 400);
    assert.deepEqual(((await infinite.json()) as Json).error, {
      code: 'INVALID_REQUEST',
      message: 'Invalid argument item_limit: must be a finite number.',
      field: 'item_limit',
      recovery: 'correctable',
    });
    assert.equal(await written(), before);
  });
});
