import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { publicTestCredential } from '../../../src/agents/index.ts';
import { saveAuthoritative } from '../../../src/registry/brands/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import type { Database } from '../../../src/db/database.ts';
import { anotherInstance, eachEngine, recordingStatements } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const RESPONSE = '/schemas/3.0.6/brand/get-brand-identity-response.json';

eachEngine('brand agent: get_brand_identity from the registry’s records', (engine) => {
  let server: TestServer;
  let other: Database;
  let publicCaller: Client;
  let owner: Client;
  const statements: string[] = [];

  const identity = async (client: Client, args: Json): Promise<{ isError: boolean; payload: Json }> => {
    const result = (await client.callTool({ name: 'get_brand_identity', arguments: args })) as Json;
    const payload = JSON.parse(result.content[0].text as string) as Json;
    const { status: _, ...answer } = payload;
    const isError = result.isError === true;
    // An answer is the published response; a failure the protocol's error, as every task's.
    const schema = isError ? '/schemas/3.0.6/core/error.json' : RESPONSE;
    assert.deepEqual(validateSchema(schema, answer).errors, [], `the answer is ${schema}`);
    return { isError, payload: answer };
  };

  before(async () => {
    // The demo world's brands (houses and sub-brands from their brand.json) and the test deployment's agents.
    server = await startTestServer(recordingStatements(engine, statements), {
      env: { AGENTS: 'true', AP_DEMO: 'true' },
    });
    other = await anotherInstance(server.db);
    await server.db.transaction(async (tx) => {
      await saveAuthoritative(tx, {
        domain: 'acme-outdoor.test',
        brand_name: 'Acme Outdoor',
        brand_key: 'acme_outdoor',
        keller_type: 'master',
        house_domain: 'acme-outdoor.test',
        manifest: {
          name: 'Acme Outdoor',
          description: 'Gear for the hills.',
          industries: ['outdoor'],
          logos: [{ url: 'https://acme-outdoor.test/logo.svg', tags: ['icon'] }],
          colors: [
            { hex: '#1B4332', type: 'primary' },
            { hex: '#F4A261', type: 'accent' },
            { hex: '#E76F51', type: 'accent' },
          ],
          tone: { voice: 'warm, plain', dos: ['Talk about the trail'] },
          tagline: 'Further, together.',
        },
        aliases: [],
      });
      await saveAuthoritative(tx, {
        domain: 'trail.acme-outdoor.test',
        brand_name: 'Acme Trail',
        brand_key: 'acme_trail',
        keller_type: 'sub_brand',
        house_domain: 'acme-outdoor.test',
        manifest: { name: 'Acme Trail' },
        aliases: [],
      });
    });
    publicCaller = await mcpClient(server.url, '/brand', { authorization: `Bearer ${publicTestCredential}` });
    // An organization that proved control of the house's domain: it has rights to its brands.
    const org = await seedOrganization(server.db);
    await server.db.query(
      `insert into ownership_proofs (organization_id, domain, method, proved_at) values ($1, $2, 'dns', $3)`,
      [org.id, 'acme-outdoor.test', new Date()],
    );
    owner = await mcpClient(server.url, '/brand', {
      authorization: `Bearer ${await createApiKeyFor(server.db, org.slug)}`,
    });
  });
  after(async () => {
    await publicCaller?.close();
    await owner?.close();
    await other?.close();
    await server?.close();
  });

  it('answers every demo brand as /api/brands/resolve and its record say', async () => {
    const listed = (await json(await fetch(`${server.url}/api/brands/registry?limit=100`))) as Json;
    const brands = listed.brands as Json[];
    assert.ok(brands.length >= 5, `the demo world has brands (${brands.length})`);
    for (const brand of brands) {
      const resolved = (await json(
        await fetch(`${server.url}/api/brands/resolve?domain=${encodeURIComponent(brand.domain as string)}`),
      )) as Json;
      const { isError, payload } = await identity(publicCaller, { brand_id: brand.domain });
      assert.equal(isError, false, brand.domain as string);
      assert.deepEqual(
        [payload.house, payload.names, payload.keller_type],
        [
          {
            domain: resolved.house_domain,
            name: brands.find((b) => b.domain === resolved.house_domain)?.brand_name ?? resolved.house_domain,
          },
          [{ und: resolved.brand_name }],
          resolved.keller_type,
        ],
        brand.domain as string,
      );
      const manifest = brand.brand_manifest as Json;
      // The listing shows each logo's url and tags; the agent the whole brand.json logo.
      assert.deepEqual(
        (payload.logos as Json[] | undefined)?.map((l) => l.url),
        manifest.logos?.length ? manifest.logos.map((l: Json) => l.url) : undefined,
        `${brand.domain} logos`,
      );
      assert.equal(payload.description, manifest.description, `${brand.domain} description`);
    }
  });

  it('finds a brand by domain, registry id or brand.json id; public sections for anyone, the reserved ones for its owner', async () => {
    const resolved = (await json(await fetch(`${server.url}/api/brands/resolve?domain=acme-outdoor.test`))) as Json;
    const byDomain = (await identity(publicCaller, { brand_id: 'acme-outdoor.test' })).payload;
    assert.deepEqual(byDomain, {
      brand_id: 'acme-outdoor.test',
      house: { domain: 'acme-outdoor.test', name: 'Acme Outdoor' },
      names: [{ und: 'Acme Outdoor' }],
      description: 'Gear for the hills.',
      industries: ['outdoor'],
      keller_type: 'master',
      logos: [{ url: 'https://acme-outdoor.test/logo.svg', tags: ['icon'] }],
      colors: { primary: '#1B4332', accent: ['#F4A261', '#E76F51'] },
      tagline: 'Further, together.',
      available_fields: ['tone'],
    });
    for (const brand_id of [resolved.canonical_id, 'acme_outdoor'])
      assert.deepEqual((await identity(publicCaller, { brand_id })).payload, { ...byDomain, brand_id });
    const mine = (await identity(owner, { brand_id: 'acme-outdoor.test' })).payload;
    assert.deepEqual(mine.tone, { voice: 'warm, plain', dos: ['Talk about the trail'] });
    assert.equal(mine.available_fields, undefined);
    const sub = (await identity(owner, { brand_id: 'trail.acme-outdoor.test', fields: ['keller_type', 'logos'] }))
      .payload;
    assert.deepEqual(sub, {
      brand_id: 'trail.acme-outdoor.test',
      house: { domain: 'acme-outdoor.test', name: 'Acme Outdoor' },
      names: [{ und: 'Acme Trail' }],
      keller_type: 'sub_brand',
    });
  });

  it('answers a brand the registry does not know as not found, never an invented identity', async () => {
    for (const brand_id of ['unknown-brand.test', 'no_such_key', '00000000-0000-4000-8000-000000000000']) {
      const { isError, payload } = await identity(publicCaller, { brand_id });
      assert.equal(isError, true);
      assert.deepEqual([payload.code, payload.field], ['REFERENCE_NOT_FOUND', 'brand_id'], brand_id);
    }
  });

  it('shows a save through the registry at once', async () => {
    // Asked before it exists: that the registry does not know it is not kept past the save.
    assert.equal((await identity(publicCaller, { brand_id: 'newcomer.test' })).isError, true);
    // As the registry's administrator, who needs no proof of the domain.
    const saved = await postJson(`${server.url}/api/brands/save`, {
      domain: 'newcomer.test',
      brand_name: 'Newcomer',
      brand_manifest: { description: 'Just saved.' },
    });
    assert.equal(saved.status, 201, JSON.stringify(await saved.json()));
    const { payload } = await identity(publicCaller, { brand_id: 'newcomer.test' });
    assert.deepEqual([payload.names, payload.description], [[{ und: 'Newcomer' }], 'Just saved.']);
  });

  it('answers a brand asked before from memory, and another instance’s change on the very next call', async () => {
    await identity(publicCaller, { brand_id: 'trail.acme-outdoor.test' });
    const from = statements.length;
    const again = await identity(publicCaller, { brand_id: 'trail.acme-outdoor.test' });
    assert.deepEqual(
      statements.slice(from).filter((sql) => /\bbrands?\b|brand_aliases/.test(sql)),
      [],
      'no brand read',
    );
    assert.deepEqual(again.payload.names, [{ und: 'Acme Trail' }]);
    await other.query(`update brands set brand_name = 'Acme Trailworks' where domain = 'trail.acme-outdoor.test'`);
    assert.deepEqual((await identity(publicCaller, { brand_id: 'trail.acme-outdoor.test' })).payload.names, [
      { und: 'Acme Trailworks' },
    ]);
  });
});
