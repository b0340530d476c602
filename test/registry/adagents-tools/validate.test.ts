import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, beforeEach, it } from 'node:test';
import { ADAGENTS_SCHEMA_ID, validateSchema } from '../../../src/protocol/schemas.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { adagents, agent, property } from '../crawler/documents.ts';

const VALIDATE = '/api/adagents/validate';
const CREATE = '/api/adagents/create';
const LIMIT = 6;
const wellKnown = (domain: string) => `https://${domain}/.well-known/adagents.json`;
const codes = (findings: Json[]) => findings.map((f) => `${f.code} ${f.path}`);
/** Arrays nested `levels` deep, as JSON text: small, and deeper than any recursive walk survives. */
const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

eachEngine('POST /api/adagents/validate and /api/adagents/create', (engine) => {
  let fleet: Fleet;
  let server: TestServer;
  const clock = new ManualClock();
  const validate = (body: unknown) => postJson(`${server.url}${VALIDATE}`, body, {});
  const create = (body: unknown, query = '') => postJson(`${server.url}${CREATE}${query}`, body, {});

  before(async () => {
    fleet = await startFleet([
      'pub',
      'agent',
      'ref',
      'loop-a',
      'loop-b',
      'hop-0',
      'hop-1',
      'hop-2',
      'hop-3',
      'gone',
      'html',
      'inward',
      'deep',
    ]);
    const [pub, agentHost] = ['pub.ap.test', 'agent.ap.test'];
    fleet.serve(pub, '/.well-known/adagents.json', {
      body: adagents(pub, {
        agents: [agent(`https://${agentHost}/mcp`, ['main']), agent('https://intranet.example/mcp', ['main'])],
      }),
    });
    fleet.serve(pub, '/managed.json', { body: adagents(pub) });
    fleet.serve('ref.ap.test', '/.well-known/adagents.json', {
      body: { authoritative_location: 'https://pub.ap.test/managed.json' },
    });
    fleet.serve('loop-a.ap.test', '/.well-known/adagents.json', {
      body: { authoritative_location: wellKnown('loop-b.ap.test') },
    });
    fleet.serve('loop-b.ap.test', '/.well-known/adagents.json', {
      body: { authoritative_location: wellKnown('loop-a.ap.test') },
    });
    for (let i = 0; i < 3; i++)
      fleet.serve(`hop-${i}.ap.test`, '/.well-known/adagents.json', {
        body: { authoritative_location: wellKnown(`hop-${i + 1}.ap.test`) },
      });
    fleet.serve('hop-3.ap.test', '/.well-known/adagents.json', { body: adagents('hop-3.ap.test') });
    fleet.serve('html.ap.test', '/.well-known/adagents.json', { body: '<html>not here</html>' });
    fleet.serve('deep.ap.test', '/.well-known/adagents.json', {
      body: `{"authorized_agents":[{"url":"https://a.example/mcp","x":${deep(5000)}}]}`,
    });
    // A public publisher whose pointer leads inside: the fetch client refuses the hop.
    fleet.serve('inward.ap.test', '/.well-known/adagents.json', {
      body: { authoritative_location: 'https://intranet.example/adagents.json' },
    });
    server = await startTestServer(engine, {
      env: { RATE_LIMIT_ADAGENTS_TOOLS_PER_MINUTE: String(LIMIT), CRAWL_MAX_HOPS: '2', CRAWL_HOST_DELAY_MS: '0' },
      deps: {
        clock,
        fetcher: fleet.fetcher({
          names: {
            'intranet.example': ['10.1.2.3'],
            'metadata.example': ['169.254.169.254'],
            'split.example': ['93.184.216.34', '192.168.0.7'],
          },
        }),
      },
    });
  });
  after(async () => {
    await server.close();
    await fleet.close();
  });
  // Each test starts with a full budget: the limits are per minute and the server's clock is ours.
  beforeEach(() => clock.advance(61_000));

  it('validates a domain’s file, and with check_agents says which agents answer', async () => {
    const res = await validate({ domain: 'PUB.ap.test', check_agents: true });
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.valid, true);
    assert.deepEqual(body.errors, []);
    assert.deepEqual(body.source, {
      type: 'domain',
      domain: 'pub.ap.test',
      url: wellKnown('pub.ap.test'),
      chain: [wellKnown('pub.ap.test')],
    });
    assert.deepEqual(codes(body.warnings), ['agent_unreachable /authorized_agents/1/url']);
    assert.deepEqual(
      body.agents.map((a: Json) => [a.url, a.reachable, a.status]),
      [
        ['https://agent.ap.test/mcp', true, 404],
        ['https://intranet.example/mcp', false, null],
      ],
    );
    assert.match(body.agents[1].problem, /10\.1\.2\.3|not public|private/);
    assert.ok(fleet.requests('agent.ap.test').includes('/mcp'));
    // The same report as the protocol's registry client reads it.
    assert.equal(body.success, true);
    assert.equal(body.timestamp, clock.now().toISOString());
    assert.deepEqual(body.data, {
      domain: 'pub.ap.test',
      found: true,
      validation: {
        valid: true,
        errors: [],
        warnings: body.warnings,
        url: wellKnown('pub.ap.test'),
        chain: [wellKnown('pub.ap.test')],
      },
      agent_cards: body.agents,
    });
  });

  it('judges an inline document: schema errors and semantic findings, each with its JSON Pointer', async () => {
    const key = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
    const document = adagents('inline.example', {
      properties: [property('main', 'inline.example'), property('main', 'inline.example', { name: 5 })],
      agents: [
        agent('https://ops:secret@sales.example/ap', ['main']),
        agent('https://sales.example/other', ['main'], {
          authorization_type: 'property_tags',
          property_ids: undefined,
          property_tags: ['sports'],
          signing_keys: [
            { kid: 'k', ...key },
            { kid: 'k', ...key },
          ],
        }),
      ],
    });
    const res = await validate({ document });
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.valid, false);
    assert.deepEqual(codes(body.errors), [
      'schema_violation /properties/1/name',
      'agent_url_credentials /authorized_agents/0/url',
      'duplicate_signing_key_id /authorized_agents/1/signing_keys/1/kid',
    ]);
    assert.deepEqual(codes(body.warnings), [
      'duplicate_property_id /properties/1/property_id',
      'duplicate_identifier /properties/1/identifiers/0',
      'unknown_property_tag /authorized_agents/1/property_tags/0',
    ]);
    assert.doesNotMatch(JSON.stringify(body), /secret/);
    assert.deepEqual(body.source, { type: 'document', domain: null, url: null, chain: [] });
    assert.equal(body.agents, undefined);
    assert.deepEqual(
      [body.data.domain, body.data.found, body.data.validation.valid, body.data.agent_cards],
      [null, true, false, undefined],
    );
  });

  it('follows authoritative_location as the crawler does, and reports loops and chains too long', async () => {
    const followed = await json(await validate({ domain: 'ref.ap.test' }));
    assert.equal(followed.valid, true, JSON.stringify(followed.errors));
    assert.deepEqual(followed.source.chain, [wellKnown('ref.ap.test'), 'https://pub.ap.test/managed.json']);

    const loop = await json(await validate({ domain: 'loop-a.ap.test' }));
    assert.equal(loop.valid, false);
    assert.deepEqual(codes(loop.errors), ['authoritative_location_loop /authoritative_location']);
    assert.deepEqual(loop.source.chain, [wellKnown('loop-a.ap.test'), wellKnown('loop-b.ap.test')]);

    const long = await json(await validate({ domain: 'hop-0.ap.test' }));
    assert.deepEqual(codes(long.errors), ['authoritative_location_too_long /authoritative_location']);
    assert.equal(long.source.chain.length, 3);
  });

  it('a file that cannot be had is an error finding at the root, not a failed request', async () => {
    const gone = await json(await validate({ domain: 'gone.ap.test' }));
    assert.deepEqual(codes(gone.errors), ['http_status ']);
    assert.deepEqual(
      [gone.success, gone.data.found, gone.data.validation.valid],
      [true, false, false],
      'nothing found there',
    );
    const html = await json(await validate({ domain: 'html.ap.test' }));
    assert.deepEqual(codes(html.errors), ['invalid_json ']);
    assert.equal(html.data.found, true, 'a file is there, not JSON');
    const inward = await json(await validate({ domain: 'inward.ap.test' }));
    assert.deepEqual(codes(inward.errors), ['fetch_failed ']);
    assert.equal(inward.data.found, true, 'its file was read; the pointer target failed');
    assert.deepEqual(inward.source.chain, [wellKnown('inward.ap.test'), 'https://intranet.example/adagents.json']);
  });

  it('refuses a domain resolving to a private or reserved address, or to nothing (400, nothing fetched)', async () => {
    for (const [domain, code] of [
      ['intranet.example', 'domain_not_public'],
      ['metadata.example', 'domain_not_public'],
      ['split.example', 'domain_not_public'],
      ['nowhere.example', 'domain_unresolvable'],
    ]) {
      const res = await validate({ domain });
      assert.equal(res.status, 400, domain);
      const body = await json(res);
      assert.equal(body.error, code, domain);
      assert.deepEqual(body.details, [{ in: 'body', field: 'domain', message: body.details[0].message }]);
    }
  });

  it('400 with the catalogue’s body for bad input; 415 for a body that is not JSON', async () => {
    for (const [body, code, field] of [
      [{}, 'validation_failed', 'domain'],
      [{ domain: 'pub.ap.test', document: {} }, 'validation_failed', 'domain'],
      [{ document: [1, 2] }, 'validation_failed', 'document'],
      [{ domain: 'not a domain' }, 'invalid_domain', 'domain'],
    ] as const) {
      const res = await validate(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = await json(res);
      assert.equal(answer.error, code);
      assert.equal(typeof answer.message, 'string');
      assert.equal(answer.details?.[0]?.field, field, JSON.stringify(answer));
    }
    const form = await fetch(`${server.url}${VALIDATE}`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'domain=pub.ap.test',
    });
    assert.equal(form.status, 415);
  });

  it('refuses a body nested deeper than 64 levels (400 invalid_json), and reports a fetched file that deep as invalid', async () => {
    const agentEntry = `{"url":"https://a.example/mcp","authorized_for":"x","authorization_type":"property_ids","property_ids":["p"],"x":${deep(5000)}}`;
    const body = `{"document":{"authorized_agents":[${agentEntry},${agentEntry}]}}`;
    const refused = await fetch(`${server.url}${VALIDATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as Json).error, 'invalid_json');
    const made = await fetch(`${server.url}${CREATE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"publisher_domain":"pub.example","properties":[${deep(100)}],"authorized_agents":[]}`,
    });
    assert.equal(made.status, 400);
    const fetched = await json(await validate({ domain: 'deep.ap.test' }));
    assert.equal(fetched.valid, false);
    assert.match(fetched.errors[0].message, /deeper than 64 levels/);
  });

  it('keeps the first 200 findings of a kind and counts the rest', async () => {
    const doc = adagents('pub.ap.test');
    doc.authorized_agents = Array.from({ length: 300 }, (_, i) => ({
      url: `ftp://agent-${i}.example/mcp`,
      authorized_for: 'x',
      authorization_type: 'property_tags',
      property_tags: ['main'],
    }));
    const answer = await json(await validate({ document: doc }));
    assert.equal(answer.valid, false);
    assert.equal(answer.errors.length, 200);
    assert.ok(answer.omitted.errors >= 100, JSON.stringify(answer.omitted));
  });

  it(`429 with retry_after after ${LIMIT} validations a minute from one IP; the other tools keep their own budget`, async () => {
    const document = adagents('inline.example');
    for (let i = 0; i < LIMIT; i++) assert.equal((await validate({ document })).status, 200, `request ${i + 1}`);
    const refused = await validate({ document });
    assert.equal(refused.status, 429);
    const body = await json(refused);
    assert.equal(body.error, 'rate_limited');
    assert.ok(
      Number.isInteger(body.retry_after) && body.retry_after > 0 && body.retry_after <= 60,
      String(body.retry_after),
    );
    assert.equal(refused.headers.get('retry-after'), String(body.retry_after));
    assert.equal(
      (
        await create({
          publisher_domain: 'inline.example',
          properties: [property('main', 'inline.example')],
          authorized_agents: [{ url: 'https://sales.example/ap', authorized_for: 'All' }],
        })
      ).status,
      200,
    );
  });

  it('creates a schema-valid file from properties and agents; an agent without a selector gets every property by id', async () => {
    const properties = [
      property('web', 'create.example'),
      property('app', 'create.example', {
        identifiers: [{ type: 'ios_bundle', value: 'com.create.app' }],
        tags: ['apps'],
      }),
    ];
    const res = await create({
      publisher_domain: 'Create.Example',
      contact: { name: 'Ad Ops', email: 'ops@create.example' },
      properties,
      authorized_agents: [
        { url: 'https://sales.example/ap', authorized_for: 'Everything', delegation_type: 'direct' },
        { url: 'https://apps.example/ap', authorized_for: 'Apps', property_tags: ['apps'] },
      ],
    });
    assert.equal(res.status, 200);
    const { document, warnings } = await json(res);
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, document).errors, []);
    assert.deepEqual(warnings, []);
    assert.deepEqual(document.properties, properties);
    assert.deepEqual(document.authorized_agents, [
      {
        url: 'https://sales.example/ap',
        authorized_for: 'Everything',
        delegation_type: 'direct',
        authorization_type: 'property_ids',
        property_ids: ['web', 'app'],
      },
      {
        url: 'https://apps.example/ap',
        authorized_for: 'Apps',
        property_tags: ['apps'],
        authorization_type: 'property_tags',
      },
    ]);
    assert.equal(document.last_updated, clock.now().toISOString());
    assert.equal(document.$schema, '/schemas/3.0.6/adagents.json');
  });

  it('takes the protocol’s registry client’s body: no publisher_domain, agents without authorized_for, its switches and catalog fields', async () => {
    const properties = [
      property('web', 'client.example'),
      property('app', 'client.example', {
        identifiers: [{ type: 'ios_bundle', value: 'com.client.app' }],
        tags: ['apps'],
      }),
    ];
    const placements = [
      { placement_id: 'home_top', name: 'Home page, top', property_ids: ['web'], tags: ['homepage'] },
    ];
    const placement_tags = { homepage: { name: 'Home page', description: 'Placements on home pages' } };
    const formats = [{ format_option_id: 'mrec', format_kind: 'image', params: { width: 300, height: 250 } }];
    const res = await create({
      authorized_agents: [
        { url: 'https://sales.example/ap' },
        { url: 'https://apps.example/ap', property_tags: ['apps'] },
        {
          url: 'https://home.example/ap',
          authorized_for: 'Home page',
          placement_ids: ['home_top'],
          property_ids: ['web'],
        },
      ],
      properties,
      include_schema: false,
      include_timestamp: false,
      placements,
      placement_tags,
      formats,
      catalog_etag: 'v7',
    });
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, body.document).errors, []);
    assert.equal(body.document.$schema, undefined);
    assert.equal(body.document.last_updated, undefined);
    assert.deepEqual(
      [body.document.placements, body.document.placement_tags, body.document.formats, body.document.catalog_etag],
      [placements, placement_tags, formats, 'v7'],
    );
    assert.deepEqual(
      body.document.authorized_agents.map((a: Json) => [a.authorized_for, a.authorization_type]),
      [
        ['Every property in this file', 'property_ids'],
        ['Properties tagged apps', 'property_tags'],
        ['Home page', 'property_ids'],
      ],
    );
    assert.deepEqual(codes(body.warnings), ['last_updated_missing /last_updated']);
    assert.equal(body.success, true);
    assert.equal(body.timestamp, clock.now().toISOString());
    assert.deepEqual(body.data, {
      success: true,
      adagents_json: body.document,
      validation: { valid: true, errors: [], warnings: body.warnings, domain: null },
    });

    // Agents whose selectors need no properties of the file make one without properties.
    const network = await create({
      authorized_agents: [
        {
          url: 'https://net.example/ap',
          publisher_properties: [{ publisher_domain: 'client.example', selection_type: 'all' }],
        },
      ],
    });
    assert.equal(network.status, 200);
    const made = await json(network);
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, made.document).errors, []);
    assert.equal(made.document.properties, undefined);
    assert.deepEqual(
      [made.document.authorized_agents[0].authorization_type, made.document.authorized_agents[0].authorized_for],
      ['publisher_properties', 'Properties of client.example'],
    );
    assert.equal(made.data.validation.domain, null);
  });

  it('answers the same file as a download; and from the registry’s copy of a crawled publisher', async () => {
    await server.app.crawler.crawl('pub.ap.test');
    const body = {
      publisher_domain: 'pub.ap.test',
      properties_from: 'registry',
      authorized_agents: [{ url: 'https://sales.example/ap', authorized_for: 'All' }],
    };
    const res = await create(body, '?download=true');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="adagents.json"');
    assert.match(res.headers.get('content-type')!, /^application\/json/);
    const text = await res.text();
    assert.match(text, /^{\n {2}"\$schema"/);
    const file = JSON.parse(text) as Json;
    assert.deepEqual(file.properties, [{ ...property('main', 'pub.ap.test'), publisher_domain: 'pub.ap.test' }]);
    assert.deepEqual(file.authorized_agents[0].property_ids, ['main']);
    const plain = await json(await create(body));
    assert.deepEqual(plain.document, file);
  });

  it('400 naming the body field for input that cannot make a valid file', async () => {
    const properties = [property('web', 'bad.example')];
    const agents = [{ url: 'https://sales.example/ap', authorized_for: 'All' }];
    const secret = generateKeyPairSync('ed25519').privateKey.export({ format: 'jwk' });
    for (const [body, code, field] of [
      [
        {
          publisher_domain: 'bad.example',
          properties,
          authorized_agents: [{ url: 'https://u:p@sales.example/ap', authorized_for: 'All' }],
        },
        'validation_failed',
        'authorized_agents.0.url',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties,
          authorized_agents: [{ ...agents[0], signing_keys: [{ kid: 'k', ...secret }] }],
        },
        'validation_failed',
        'authorized_agents.0.signing_keys.0.d',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties: [{ ...properties[0], property_type: 'billboard_of_dreams' }],
          authorized_agents: agents,
        },
        'validation_failed',
        'properties.0.property_type',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties: [{ ...properties[0], property_id: undefined }],
          authorized_agents: agents,
        },
        'validation_failed',
        'properties.0.property_id',
      ],
      [
        { publisher_domain: 'bad.example', properties, properties_from: 'registry', authorized_agents: agents },
        'validation_failed',
        'properties',
      ],
      [{ publisher_domain: 'bad.example', authorized_agents: agents }, 'validation_failed', 'properties'],
      [
        { publisher_domain: 'unknown.example', properties_from: 'registry', authorized_agents: agents },
        'validation_failed',
        'properties_from',
      ],
      [{ properties_from: 'registry', authorized_agents: agents }, 'validation_failed', 'publisher_domain'],
      [{ authorized_agents: [{ url: 'https://sales.example/ap' }] }, 'validation_failed', 'properties'],
      [{ properties, authorized_agents: agents, catalog_etag: 'e'.repeat(257) }, 'validation_failed', 'catalog_etag'],
      [
        { properties, authorized_agents: agents, formats: Array.from({ length: 1001 }, () => ({})) },
        'validation_failed',
        'formats',
      ],
      [
        { properties, authorized_agents: agents, placements: [{ placement_id: 'p', name: 'P' }] },
        'validation_failed',
        'placements.0',
      ],
      [{ properties, authorized_agents: agents, include_schema: 'yes' }, 'validation_failed', 'include_schema'],
      [
        { publisher_domain: 'bad.example', properties, authorized_agents: [] },
        'validation_failed',
        'authorized_agents',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties,
          authorized_agents: [{ ...agents[0], property_ids: ['p'.repeat(256)] }],
        },
        'validation_failed',
        'authorized_agents.0.property_ids.0',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties,
          authorized_agents: [{ ...agents[0], property_tags: ['t'.repeat(101)] }],
        },
        'validation_failed',
        'authorized_agents.0.property_tags.0',
      ],
      [
        {
          publisher_domain: 'bad.example',
          properties,
          authorized_agents: [{ ...agents[0], authorization_type: 'x'.repeat(65) }],
        },
        'validation_failed',
        'authorized_agents.0.authorization_type',
      ],
      [{ publisher_domain: 'bad domain', properties, authorized_agents: agents }, 'invalid_domain', 'publisher_domain'],
    ] as const) {
      const res = await create(body);
      assert.equal(res.status, 400, JSON.stringify(body));
      const answer = await json(res);
      assert.equal(answer.error, code, JSON.stringify(answer));
      assert.equal(answer.details?.[0]?.field, field, JSON.stringify(answer));
      clock.advance(61_000);
    }
  });

  it('refuses a file that would list more than 20,000 property ids across its agents', async () => {
    const properties = Array.from({ length: 1000 }, (_, i) => ({
      property_id: `p${i}`,
      property_type: 'website',
      name: `Site ${i}`,
      identifiers: [{ type: 'domain', value: `s${i}.example` }],
    }));
    const authorized_agents = Array.from({ length: 21 }, (_, i) => ({
      url: `https://agent-${i}.example/mcp`,
      authorized_for: 'All',
    }));
    const res = await create({ publisher_domain: 'news.example', properties, authorized_agents });
    assert.equal(res.status, 400);
    const body = await json(res);
    assert.equal(body.error, 'validation_failed');
    assert.match(JSON.stringify(body), /21000 property ids/);
  });

  it(`429 with retry_after after ${LIMIT} creations a minute from one IP`, async () => {
    const body = {
      publisher_domain: 'limit.example',
      properties: [property('web', 'limit.example')],
      authorized_agents: [{ url: 'https://sales.example/ap', authorized_for: 'All' }],
    };
    for (let i = 0; i < LIMIT; i++) assert.equal((await create(body)).status, 200, `request ${i + 1}`);
    const refused = await create(body);
    assert.equal(refused.status, 429);
    const answer = await json(refused);
    assert.equal(answer.error, 'rate_limited');
    assert.ok(Number.isInteger(answer.retry_after) && answer.retry_after > 0);
  });
});
