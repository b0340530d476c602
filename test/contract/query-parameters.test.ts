import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { parse } from 'yaml';
import { startContractRegistry, type ContractRegistry } from '../support/contract.ts';
import { eachEngine } from '../support/engines.ts';
import type { Json } from '../support/http.ts';

/**
 * One rule for query parameters on every endpoint: a parameter the endpoint does not know is
 * ignored, never refused. The protocol's registry client sends parameters a registry of another
 * version may not know (`sort`, `scope`, `verification_mode`…), and expects the answer it would
 * have had without them. Every GET operation of the OpenAPI document is asked twice, with and
 * without a parameter no endpoint knows, and must answer the same status and error code.
 */
const pathValues: Record<string, string> = {
  domain: 'dailyharbor.example',
  agentUrl: encodeURIComponent('https://sales.meridian-sales.example/mcp'),
  url: encodeURIComponent('https://sales.meridian-sales.example/mcp'),
  id: '00000000-0000-4000-8000-000000000000',
};
// Streams never end; the rule for them is the feed's, which shares its query schema with the stream.
const neverEnds = new Set(['/api/registry/feed/stream']);

eachEngine('unknown query parameters', (engine) => {
  let registry: ContractRegistry;
  before(async () => {
    registry = await startContractRegistry(engine);
  });
  after(() => registry.close());

  it('are ignored by every GET operation of the OpenAPI document: the same status and code with or without one', async () => {
    const doc = parse(await (await fetch(`${registry.server.url}/openapi/registry.yaml`)).text()) as {
      paths: Record<string, Record<string, Json>>;
    };
    const operations = Object.entries(doc.paths).filter(([path, ops]) => ops['get'] && !neverEnds.has(path));
    assert.ok(operations.length > 30, `${operations.length} GET operations`);
    const differing: string[] = [];
    for (const [template, ops] of operations) {
      const path = template.replace(/\{(\w+)\}/g, (_, name: string) => pathValues[name] ?? 'x');
      const required = ((ops['get']!['parameters'] ?? []) as Json[]).filter(
        (p) => p['in'] === 'query' && p['required'],
      );
      const query = new URLSearchParams(
        required.map((p): [string, string] => [
          p['name'] as string,
          p['name'] === 'domain' ? 'dailyharbor.example' : 'x',
        ]),
      );
      const plain = await registry.get(`${path}?${query}`);
      query.append('zz_not_a_parameter', '1');
      const extra = await registry.get(`${path}?${query}`);
      if (plain.status !== extra.status || plain.body['error'] !== extra.body['error'])
        differing.push(
          `${template}: ${plain.status} ${plain.body['error'] ?? ''} → ${extra.status} ${extra.body['error'] ?? ''}`,
        );
    }
    assert.deepEqual(differing, []);
  });
});
