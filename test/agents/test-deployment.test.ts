import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../src/config.ts';
import { validateSchema } from '../../src/protocol/schemas.ts';
import { a2aClient, callSkill, mcpClient } from '../support/agents.ts';
import { engines } from '../support/engines.ts';
import { json, type Json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { pixel } from './creative/render/fixtures.ts';

/** The agents `ap serve` mounts by default, with the demo catalog. */
describe('the test deployment', () => {
  let server: TestServer;
  let sales: Client;
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await sales.callTool({ name, arguments: args })) as Json;
    assert.equal(result.isError, undefined, result.content[0].text as string);
    return JSON.parse(result.content[0].text as string) as Json;
  };

  before(async () => {
    server = await startTestServer(engines[0]!, { env: { AGENTS: 'true' } });
    sales = await mcpClient(server.url, '/sales', { authorization: `Bearer ${publicTestCredential}` });
  });
  after(async () => {
    await sales.close();
    await server.close();
  });

  it('lists its agents and their tools in /.well-known/adagents.json, valid as an adagents.json', async () => {
    const listing = await json(await fetch(`${server.url}/.well-known/adagents.json`));
    assert.deepEqual(validateSchema('/schemas/3.0.6/adagents.json', listing).errors, []);
    const tenants = listing.tenants as Json[];
    assert.deepEqual(
      tenants.map((t) => [t.name, t.mcp]),
      [
        ['sales', `${server.url}/sales/mcp`],
        ['signals', `${server.url}/signals/mcp`],
        ['creative', `${server.url}/creative/mcp`],
        ['creative-builder', `${server.url}/creative-builder/mcp`],
        ['governance', `${server.url}/governance/mcp`],
        ['brand', `${server.url}/brand/mcp`],
      ],
    );
    assert.deepEqual(tenants[0]!.tools, [
      'get_ap_capabilities',
      'get_task',
      'cancel_task',
      'get_products',
      'list_creative_formats',
      'sync_accounts',
      'list_accounts',
      'sync_governance',
      'create_media_buy',
      'update_media_buy',
      'get_media_buys',
      'get_media_buy_delivery',
      'get_media_buy_artifacts',
      'sync_creatives',
      'list_creatives',
      'sync_catalogs',
      'sync_event_sources',
      'log_event',
      'provide_performance_feedback',
      'build_creative',
      'comply_test_controller',
    ]);
    assert.deepEqual(tenants[1]!.tools, [
      'get_ap_capabilities',
      'get_task',
      'cancel_task',
      'get_signals',
      'activate_signal',
      'sync_accounts',
      'list_accounts',
      'sync_governance',
    ]);
    assert.deepEqual(tenants[2]!.tools, [
      'get_ap_capabilities',
      'list_creative_formats',
      'build_creative',
      'preview_creative',
      'sync_creatives',
      'list_creatives',
    ]);
    assert.deepEqual(tenants[3]!.tools, [
      'get_ap_capabilities',
      'list_creative_formats',
      'build_creative',
      'preview_creative',
    ]);
    assert.equal(
      (listing.authorized_agents as Json[]).length,
      1,
      'the signals and creative agents sell no publisher properties',
    );
    const [sold] = listing.authorized_agents as Json[];
    assert.equal(sold!.url, `${server.url}/sales/mcp`);
    assert.ok((sold!.publisher_properties as Json[]).length > 0);
  });

  it('declares the media_buy protocol, its pricing models, features and specialisms', async () => {
    const capabilities = await call('get_ap_capabilities');
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
      [],
    );
    assert.deepEqual(capabilities.supported_protocols, ['media_buy']);
    assert.ok(((capabilities.media_buy as Json).supported_pricing_models as string[]).includes('cpm'));
    assert.equal((capabilities.account as Json).require_operator_auth, false);
    assert.deepEqual((capabilities.media_buy as Json).features, {
      inline_creative_management: true,
      property_list_filtering: true,
      catalog_management: true,
    });
    assert.deepEqual((capabilities.media_buy as Json).conversion_tracking, { multi_source_event_dedup: false });
    assert.deepEqual(capabilities.specialisms, [
      'sales-guaranteed',
      'sales-non-guaranteed',
      'sales-proposal-mode',
      'sales-catalog-driven',
      'governance-aware-seller',
    ]);
    assert.deepEqual((capabilities.compliance_testing as Json).scenarios, [
      'force_creative_status',
      'force_account_status',
      'force_media_buy_status',
      'simulate_delivery',
      'simulate_budget_spend',
    ]);
  });

  it('answers get_products for a sandbox account as sandbox, once the buyer has synced it', async () => {
    const account = {
      brand: { domain: 'trailhead-coffee.example' },
      operator: 'trailhead-coffee.example',
      sandbox: true,
    };
    const synced = await call('sync_accounts', {
      idempotency_key: randomUUID(),
      accounts: [{ ...account, billing: 'operator' }],
    });
    assert.equal(((synced.accounts as Json[])[0]!.sandbox as boolean | undefined) ?? true, true);
    const answer = await call('get_products', { brief: 'recipes', account });
    assert.equal(answer.sandbox, true);
    assert.equal((await call('get_products', { brief: 'recipes' })).sandbox, false);
  });

  it('lists the formats its products take, with the products’ own format ids, and the creative agent defining them', async () => {
    const { products } = await call('get_products', { buying_mode: 'wholesale', pagination: { max_results: 100 } });
    const used = (products as Json[]).flatMap((p) => p.format_ids as Json[]);
    const answer = await call('list_creative_formats');
    const formats = answer.formats as Json[];
    assert.ok(formats.length > 0);
    for (const format of formats)
      assert.ok(
        used.some((id) => isDeepStrictEqual(id, format.format_id)),
        `${JSON.stringify(format.format_id)} is a product's`,
      );
    for (const id of used)
      assert.ok(
        formats.some((f) => isDeepStrictEqual(f.format_id, id)),
        `${JSON.stringify(id)} is listed`,
      );
    assert.deepEqual(answer.creative_agents, [{ agent_url: `${server.url}/creative/mcp` }]);
  });

  it('serves the creative agent that defines those formats: every format the sales agent names is one of its own', async () => {
    const creative = await mcpClient(server.url, '/creative', { authorization: `Bearer ${publicTestCredential}` });
    try {
      const ask = async (name: string, args: Record<string, unknown>) =>
        JSON.parse(((await creative.callTool({ name, arguments: args })) as Json).content[0].text as string) as Json;
      const capabilities = await ask('get_ap_capabilities', {});
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
        [],
      );
      assert.deepEqual(capabilities.supported_protocols, ['creative']);
      const defined = await ask('list_creative_formats', { pagination: { max_results: 100 } });
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/creative/list-creative-formats-response.json', defined).errors,
        [],
      );
      const sold = (await call('list_creative_formats')).formats as Json[];
      for (const format of sold)
        assert.ok(
          (defined.formats as Json[]).some((f) => isDeepStrictEqual(f.format_id, format.format_id)),
          `${format.format_id.id} is defined by the creative agent`,
        );
    } finally {
      await creative.close();
    }
  });

  it('serves the governance agent with demo plans and standards the public credential uses at once, over MCP and A2A', async () => {
    // The passes ran at start; one more run, awaited, means the demo plans and standards are there.
    for (const name of ['governance:demo-plans', 'governance:demo-standards']) {
      const demo = server.app.agentPasses!.get(name)!;
      const seeded = demo.nextPass();
      demo.wake();
      await seeded;
    }
    const governance = await mcpClient(server.url, '/governance', {
      authorization: `Bearer ${publicTestCredential}`,
    });
    try {
      const check = async (planId: string) =>
        JSON.parse(
          (
            (await governance.callTool({
              name: 'check_governance',
              arguments: {
                plan_id: planId,
                caller: 'https://buyer.example',
                tool: 'create_media_buy',
                payload: { packages: [{ budget: 10_000 }], geo: { countries: ['US'] } },
              },
            })) as Json
          ).content[0].text as string,
        ) as Json;
      const approved = await check('demo_spring_launch');
      assert.equal(approved.status, 'approved', JSON.stringify(approved));
      assert.deepEqual(validateSchema('/schemas/3.0.6/governance/check-governance-response.json', approved).errors, []);
      const review = await check('demo_human_review');
      assert.equal(review.status, 'denied');
      assert.equal((review.findings as Json[])[0]!.category_id, 'human_review');
      const calibrated = JSON.parse(
        (
          (await governance.callTool({
            name: 'calibrate_content',
            arguments: {
              idempotency_key: `demo-calibration-${Date.now()}`,
              standards_id: 'demo_brand_safety',
              artifact: {
                property_rid: 'demo',
                artifact_id: 'a1',
                assets: [{ type: 'text', content: 'Hunting rifles and other weapons on sale.' }],
              },
            },
          })) as Json
        ).content[0].text as string,
      ) as Json;
      assert.equal(calibrated.verdict, 'fail', JSON.stringify(calibrated));
    } finally {
      await governance.close();
    }
    const a2a = await callSkill(
      await a2aClient(server.url, '/governance', { authorization: `Bearer ${publicTestCredential}` }),
      'get_plan_audit_logs',
      { plan_ids: ['demo_spring_launch'] },
    );
    const [plan] = a2a['plans'] as Json[];
    assert.equal((plan!.summary as Json).checks_performed, 1);
  });

  it('serves the creative builder: it builds a format the sales agent names, and serves the generated image', async () => {
    const builder = await mcpClient(server.url, '/creative-builder', {
      authorization: `Bearer ${publicTestCredential}`,
    });
    try {
      const ask = async (name: string, args: Record<string, unknown>) =>
        JSON.parse(((await builder.callTool({ name, arguments: args })) as Json).content[0].text as string) as Json;
      const capabilities = await ask('get_ap_capabilities', {});
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
        [],
      );
      assert.deepEqual(
        [
          capabilities.specialisms,
          capabilities.creative.supports_generation,
          capabilities.creative.supports_transformation,
        ],
        [[], true, true],
        'creative-generative exercises sync_catalogs, which it does not serve',
      );
      const [format] = ((await call('list_creative_formats')).formats as Json[]).filter(
        (f) => f.format_id.id === 'display_300x250',
      );
      const answer = await ask('build_creative', {
        idempotency_key: randomUUID(),
        target_format_id: format!.format_id,
        creative_manifest: {
          format_id: format!.format_id,
          assets: {
            promoted_offerings: {
              brand_manifest: {
                name: 'Trailhead Coffee',
                url: 'https://trailhead-coffee.example/',
                colors: { primary: '#0b3d2e' },
              },
              inline_offerings: [{ name: 'Summit Roast' }],
            },
          },
        },
      });
      assert.deepEqual(validateSchema('/schemas/3.0.6/media-buy/build-creative-response.json', answer).errors, []);
      assert.deepEqual(answer.creative_manifest.format_id, format!.format_id);
      const image = await fetch(answer.creative_manifest.assets.banner_image.url);
      assert.deepEqual([image.status, image.headers.get('content-type')], [200, 'image/png']);

      // The creative agent previews it, its snapshot drawing the generated image (not a placeholder for an image it could not fetch).
      const creative = await mcpClient(server.url, '/creative', { authorization: `Bearer ${publicTestCredential}` });
      try {
        const preview = JSON.parse(
          (
            (await creative.callTool({
              name: 'preview_creative',
              arguments: { request_type: 'single', creative_manifest: answer.creative_manifest, quality: 'production' },
            })) as Json
          ).content[0].text as string,
        ) as Json;
        const snapshot = new Uint8Array(await (await fetch(preview.previews[0].renders[0].snapshot_url)).arrayBuffer());
        assert.deepEqual(pixel(snapshot, 2, 2).slice(0, 3), [0x0b, 0x3d, 0x2e]);
      } finally {
        await creative.close();
      }
    } finally {
      await builder.close();
    }
  });

  it('serves the signals agent: its protocol, targets and specialisms, and the demo custom signals of the public credential', async () => {
    const signals = await mcpClient(server.url, '/signals', { authorization: `Bearer ${publicTestCredential}` });
    try {
      const ask = async (name: string, args: Record<string, unknown>) =>
        JSON.parse(((await signals.callTool({ name, arguments: args })) as Json).content[0].text as string) as Json;
      const capabilities = await ask('get_ap_capabilities', {});
      assert.deepEqual(
        validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
        [],
      );
      assert.deepEqual(capabilities.supported_protocols, ['signals']);
      assert.deepEqual(capabilities.specialisms, ['signal-owned', 'signal-marketplace']);
      assert.deepEqual((capabilities.signals as Json).platforms, [
        'amazon-dsp',
        'dv360',
        'google-ad-manager',
        'index-exchange',
        'magnite',
        'pubmatic',
        'the-trade-desk',
        'xandr',
        'yahoo-dsp',
      ]);
      assert.ok(((capabilities.signals as Json).data_provider_domains as string[]).includes('audiencegraph.example'));
      const custom = await ask('get_signals', {
        signal_spec: 'weekend getaway planners',
        filters: { catalog_types: ['custom'] },
      });
      assert.deepEqual(validateSchema('/schemas/3.0.6/signals/get-signals-response.json', custom).errors, []);
      assert.ok(
        (custom.signals as Json[]).some((s) => s.name === 'Weekend getaway planners (custom)'),
        'built for the public-test principal',
      );
    } finally {
      await signals.close();
    }
  });

  it('refuses callers without a credential', async () => {
    const res = await fetch(`${server.url}/sales/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    assert.equal(res.status, 401);
  });

  it('says in each agent card that the bearer scheme is required and that a public test credential exists', async () => {
    for (const path of ['/sales', '/signals', '/creative', '/creative-builder', '/governance']) {
      const card = await json(await fetch(`${server.url}${path}/.well-known/agent-card.json`));
      const bearer = (card.securitySchemes as Json).bearer.httpAuthSecurityScheme as Json;
      assert.equal(bearer.scheme, 'Bearer', path);
      assert.match(bearer.description as string, /public test credential/, path);
      assert.equal(
        JSON.stringify(card).includes(publicTestCredential),
        false,
        'the card names the credential, not its value',
      );
    }
  });
});
