import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../src/config.ts';
import { schemasDir, validateSchema } from '../../src/protocol/schemas.ts';
import { mcpClient } from '../support/agents.ts';
import { engines } from '../support/engines.ts';
import type { Json } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

interface Manifest {
  tools: Record<string, { protocol: string }>;
  specialisms: Record<string, { protocol: string; exercised_tools: string[] }>;
}

const manifest = JSON.parse(readFileSync(join(schemasDir, '3.0.6', 'manifest.json'), 'utf8')) as Manifest;
const specialismEnum = (
  JSON.parse(readFileSync(join(schemasDir, '3.0.6', 'enums', 'specialism.json'), 'utf8')) as { enum: string[] }
).enum;

/** What each tenant of the test deployment claims. */
const claims: Record<string, string[]> = {
  sales: [
    'sales-guaranteed',
    'sales-non-guaranteed',
    'sales-proposal-mode',
    'sales-catalog-driven',
    'governance-aware-seller',
  ],
  signals: ['signal-owned', 'signal-marketplace'],
  creative: ['creative-template'],
  'creative-builder': [],
  governance: [
    'governance-spend-authority',
    'governance-delivery-monitor',
    'content-standards',
    'property-lists',
    'collection-lists',
  ],
  brand: ['brand-rights'],
};

/**
 * Honest specialisms (manifest.json): every tenant of the test deployment declares only
 * specialisms of the published enum, in protocols it declares, and serves every tool the
 * conformance kit calls for each (its `exercised_tools` that are tools; `expect_*` are the kit's
 * own checks), both in get_ap_capabilities' `tasks` and in the MCP tool list.
 */
for (const engine of engines) {
  describe(`the test deployment's specialisms (${engine.name})`, () => {
    let server: TestServer;
    const clients: Client[] = [];

    before(async () => {
      server = await startTestServer(engine, { env: { AGENTS: 'true' } });
    });
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await server?.close();
    });

    it('declares, for each tenant, only specialisms whose every exercised tool it serves', async () => {
      const listing = (await (await fetch(`${server.url}/.well-known/adagents.json`)).json()) as Json;
      const tenants = (listing.tenants as Json[]).map((t) => ({
        name: t.name as string,
        path: new URL(t.mcp as string).pathname.replace(/\/mcp$/, ''),
      }));
      assert.deepEqual(
        tenants.map((t) => t.name),
        ['sales', 'signals', 'creative', 'creative-builder', 'governance', 'brand'],
      );
      // A specialism's storyboard may exercise another protocol's tools (campaign governance buys
      // with create_media_buy): a tenant of the deployment serving that protocol must serve them.
      const servedByProtocol = new Map<string, Set<string>>();
      for (const tenant of tenants) {
        const client = await mcpClient(server.url, tenant.path, { authorization: `Bearer ${publicTestCredential}` });
        clients.push(client);
        const tools = (await client.listTools()).tools.map((t) => t.name);
        for (const tool of tools) {
          const protocol = manifest.tools[tool]?.protocol;
          if (protocol) servedByProtocol.set(protocol, (servedByProtocol.get(protocol) ?? new Set()).add(tool));
        }
      }
      for (const tenant of tenants) {
        const client = await mcpClient(server.url, tenant.path, { authorization: `Bearer ${publicTestCredential}` });
        clients.push(client);
        const result = (await client.callTool({ name: 'get_ap_capabilities', arguments: {} })) as Json;
        const capabilities = JSON.parse(result.content[0].text as string) as Json;
        assert.deepEqual(
          validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
          [],
          tenant.name,
        );
        const declared = capabilities.specialisms as string[];
        assert.deepEqual(declared, claims[tenant.name], `${tenant.name} claims what the issue asks of it`);
        const tools = new Set((await client.listTools()).tools.map((t) => t.name));
        // What it says it serves, and does: get_task and cancel_task are the runtime's, not tasks it declares.
        const served = new Set((capabilities.tasks as string[]).filter((t) => tools.has(t)));
        assert.deepEqual([...served], capabilities.tasks, `${tenant.name}: every task its capabilities name is a tool`);
        const missing: string[] = [];
        for (const specialism of declared) {
          assert.ok(
            specialismEnum.includes(specialism),
            `${tenant.name} declares ${specialism}, which enums/specialism.json does not have`,
          );
          const entry = manifest.specialisms[specialism.replaceAll('-', '_')];
          assert.ok(entry, `${specialism} is in manifest.json`);
          assert.ok(
            (capabilities.supported_protocols as string[]).includes(entry.protocol.replaceAll('-', '_')),
            `${tenant.name} declares ${specialism}'s protocol ${entry.protocol}`,
          );
          for (const tool of entry.exercised_tools.filter((t) => Object.hasOwn(manifest.tools, t))) {
            const ownProtocol = manifest.tools[tool]!.protocol === entry.protocol;
            const servedHere = ownProtocol
              ? served.has(tool)
              : servedByProtocol.get(manifest.tools[tool]!.protocol)?.has(tool);
            if (!servedHere) missing.push(`${specialism}: ${tool}`);
          }
        }
        assert.deepEqual(missing, [], `${tenant.name} serves every tool its specialisms exercise`);
      }
    });

    it('has the creative agent claim template building and the builder nothing it cannot serve', async () => {
      const capabilitiesOf = async (path: string) => {
        const client = await mcpClient(server.url, path, { authorization: `Bearer ${publicTestCredential}` });
        clients.push(client);
        const result = (await client.callTool({ name: 'get_ap_capabilities', arguments: {} })) as Json;
        return JSON.parse(result.content[0].text as string) as Json;
      };
      const creative = await capabilitiesOf('/creative');
      assert.deepEqual(creative.specialisms, ['creative-template']);
      assert.deepEqual(creative.supported_protocols, ['creative']);
      assert.equal((creative.creative as Json).supports_transformation, true);
      assert.equal((creative.creative as Json).has_creative_library, true);
      const builder = await capabilitiesOf('/creative-builder');
      assert.deepEqual(
        builder.specialisms,
        [],
        'creative-generative exercises sync_catalogs, which the builder does not serve',
      );
      assert.equal((builder.creative as Json).supports_generation, true);
      assert.ok((builder.tasks as string[]).includes('list_creative_formats'));
    });
  });
}
