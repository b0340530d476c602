import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { jsonPath, pointerSegments } from '../../src/protocol/json-path.ts';
import {
  ADAGENTS_SCHEMA_ID,
  BRAND_SCHEMA_ID,
  REGISTRY_EVENT_SCHEMA_ID,
  REGISTRY_FEED_RESPONSE_SCHEMA_ID,
  schemasDir,
  validateSchema,
} from '../../src/protocol/schemas.ts';

const sharedSchemasDir = resolve(import.meta.dirname, '../../../shared/schemas');

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
}

/** Schema files by their `$id`: the vendored copies double as test fixtures. */
function vendoredSchemas(): Map<string, Record<string, unknown>> {
  const schemas = new Map<string, Record<string, unknown>>();
  for (const file of filesUnder(schemasDir)) {
    if (!file.endsWith('.json')) continue;
    const schema = readJson(join(schemasDir, file));
    if (typeof schema['$id'] === 'string') schemas.set(schema['$id'], schema);
  }
  return schemas;
}

/** Published examples are either the document itself or `{description, data}`. */
function examplesOf(schema: Record<string, unknown>): unknown[] {
  const examples = Array.isArray(schema['examples']) ? (schema['examples'] as unknown[]) : [];
  return examples.map((example) => {
    const wrapped =
      example !== null && typeof example === 'object' && Object.keys(example).sort().join() === 'data,description';
    return wrapped ? (example as { data: unknown }).data : example;
  });
}

const clone = <T>(value: T): T => structuredClone(value);

/** Issues come in schema order, which a re-synced schema may change. */
const sorted = <T extends { path: string }>(issues: T[]): T[] =>
  [...issues].sort((a, b) => a.path.localeCompare(b.path));

function inlineAdagents() {
  return {
    $schema: '/schemas/3.0.6/adagents.json',
    contact: { name: 'Daily Planet Ad Operations', email: 'adops@dailyplanet.example', domain: 'dailyplanet.example' },
    properties: [
      {
        property_id: 'planet_web',
        property_type: 'website',
        name: 'Daily Planet',
        identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
        tags: ['news'],
        publisher_domain: 'dailyplanet.example',
      },
    ],
    tags: { news: { name: 'News', description: 'News sites and apps' } },
    authorized_agents: [
      {
        url: 'https://sales.dailyplanet.example/ap',
        authorized_for: 'All Daily Planet inventory',
        authorization_type: 'property_ids',
        property_ids: ['planet_web'],
        delegation_type: 'direct',
      },
      {
        url: 'https://ssp.example.com/ap',
        authorized_for: 'CTV inventory of partner publishers',
        authorization_type: 'publisher_properties',
        publisher_properties: [
          { publisher_domain: 'metropolis.example', selection_type: 'by_tag', property_tags: ['ctv'] },
        ],
      },
    ],
    last_updated: '2026-02-15T09:30:00Z',
  };
}

describe('vendored schemas', () => {
  it('are byte-identical to ../shared/schemas', (t) => {
    if (!existsSync(sharedSchemasDir)) {
      t.diagnostic(
        `${sharedSchemasDir} is absent, so the vendored copies in ${schemasDir} cannot be compared; they are used as they are`,
      );
      return;
    }
    const shared = filesUnder(sharedSchemasDir);
    assert.deepEqual(filesUnder(schemasDir), shared, 'the file lists differ; run scripts/sync-schemas.sh');
    for (const file of shared) {
      const same = readFileSync(join(schemasDir, file)).equals(readFileSync(join(sharedSchemasDir, file)));
      assert.ok(same, `${file} differs from ../shared/schemas; run scripts/sync-schemas.sh`);
    }
  });

  it('name the schemas the registry uses by their own $id', () => {
    const ids = [ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, REGISTRY_EVENT_SCHEMA_ID, REGISTRY_FEED_RESPONSE_SCHEMA_ID];
    for (const id of ids) assert.equal(readJson(join(schemasDir, id.slice('/schemas/'.length)))['$id'], id);
  });

  it('all compile, and every example they publish validates', () => {
    let examples = 0;
    for (const [id, schema] of vendoredSchemas()) {
      for (const [index, example] of examplesOf(schema).entries()) {
        examples++;
        assert.deepEqual(validateSchema(id, example), { valid: true, errors: [] }, `${id} example ${index}`);
      }
      // Something invalid for nearly every schema, so each is compiled and its errors explained.
      assert.equal(typeof validateSchema(id, Symbol.for('not json')).valid, 'boolean');
    }
    assert.ok(examples > 100, `only ${examples} examples found`);
  });

  it('refuses an unknown id', () => {
    assert.throws(() => validateSchema('/schemas/3.0.6/no-such-schema.json', {}), /no schema with \$id/);
    assert.throws(() => validateSchema('/schemas/3.0.6/../../package.json', {}), /no schema with \$id/);
  });
});

describe('adagents.json validation', () => {
  const published = examplesOf(vendoredSchemas().get(ADAGENTS_SCHEMA_ID)!);

  it('accepts every published example', () => {
    assert.ok(published.length >= 2);
    for (const [index, example] of published.entries()) {
      assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, example), { valid: true, errors: [] }, `example ${index}`);
    }
  });

  it('accepts an inline file and a reference file', () => {
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, inlineAdagents()), { valid: true, errors: [] });
    const reference = {
      authoritative_location: 'https://cdn.network.example/adagents.json',
      last_updated: '2026-02-01T00:00:00Z',
    };
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, reference), { valid: true, errors: [] });
  });

  it('reports only the errors of the variant an agent entry means', () => {
    const doc = inlineAdagents();
    Object.assign(doc.authorized_agents[0]!, { authorized_for: 5 });
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, doc), {
      valid: false,
      errors: [
        {
          path: '$.authorized_agents[0].authorized_for',
          pointer: '/authorized_agents/0/authorized_for',
          message: 'must be string',
        },
      ],
    });
  });

  it('names a missing property in the path', () => {
    const doc = inlineAdagents();
    delete (doc.authorized_agents[0] as Partial<(typeof doc.authorized_agents)[0]>).property_ids;
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, doc).errors, [
      {
        path: '$.authorized_agents[0].property_ids',
        pointer: '/authorized_agents/0/property_ids',
        message: 'is required',
      },
    ]);
  });

  it('lists the allowed discriminators when an entry names none of them', () => {
    const doc = inlineAdagents();
    doc.authorized_agents[0]!.authorization_type = 'property_id';
    const { errors } = validateSchema(ADAGENTS_SCHEMA_ID, doc);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.path, '$.authorized_agents[0].authorization_type');
    assert.match(errors[0]!.message, /^must be one of "property_ids", "property_tags", /);
  });

  it('follows variants into referenced schemas', () => {
    const doc = inlineAdagents();
    doc.authorized_agents[1]!.publisher_properties = [
      { publisher_domain: 'metropolis.example', selection_type: 'by_id', property_tags: ['ctv'] },
    ];
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, doc).errors, [
      {
        path: '$.authorized_agents[1].publisher_properties[0].property_ids',
        pointer: '/authorized_agents/1/publisher_properties/0/property_ids',
        message: 'is required',
      },
    ]);
  });

  it('explains patterns, enums and formats at their paths', () => {
    const doc = inlineAdagents();
    doc.properties[0]!.property_id = 'Planet-Web';
    doc.authorized_agents[0]!.delegation_type = 'owner';
    doc.last_updated = 'yesterday';
    assert.deepEqual(sorted(validateSchema(ADAGENTS_SCHEMA_ID, doc).errors), [
      {
        path: '$.authorized_agents[0].delegation_type',
        pointer: '/authorized_agents/0/delegation_type',
        message: 'must be one of "direct", "delegated", "ad_network"',
      },
      { path: '$.last_updated', pointer: '/last_updated', message: 'must be a valid date-time' },
      {
        path: '$.properties[0].property_id',
        pointer: '/properties/0/property_id',
        message: 'must match pattern "^[a-z0-9_]+$"',
      },
    ]);
  });

  it('quotes property names that are not identifiers', () => {
    const doc = inlineAdagents();
    Object.assign(doc.tags, { 'summer-sale': { name: 'Summer sale' }, '2026': { description: 'Season' } });
    assert.deepEqual(sorted(validateSchema(ADAGENTS_SCHEMA_ID, doc).errors), [
      { path: '$.tags["2026"].name', pointer: '/tags/2026/name', message: 'is required' },
      { path: '$.tags["summer-sale"].description', pointer: '/tags/summer-sale/description', message: 'is required' },
    ]);
  });

  it('judges a reference file as one', () => {
    const { errors } = validateSchema(ADAGENTS_SCHEMA_ID, {
      authoritative_location: 'http://cdn.network.example/adagents.json',
    });
    assert.deepEqual(errors, [
      {
        path: '$.authoritative_location',
        pointer: '/authoritative_location',
        message: 'must match pattern "^https://"',
      },
    ]);
  });

  it('says so when a file matches both variants', () => {
    const doc = { ...inlineAdagents(), authoritative_location: 'https://cdn.network.example/adagents.json' };
    const { valid, errors } = validateSchema(ADAGENTS_SCHEMA_ID, doc);
    assert.equal(valid, false);
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.path, '$');
    assert.match(errors[0]!.message, /exactly one/);
    assert.match(errors[0]!.message, /authoritative_location/);
    assert.match(errors[0]!.message, /authorized_agents/);
  });

  it('judges a file that shows no intent as an inline one', () => {
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, {}).errors, [
      { path: '$.authorized_agents', pointer: '/authorized_agents', message: 'is required' },
    ]);
    assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, []).errors, [
      { path: '$', pointer: '', message: 'must be object' },
    ]);
  });
});

describe('brand.json validation', () => {
  function portfolio() {
    return {
      $schema: '/schemas/3.0.6/brand.json',
      version: '1.0',
      house: { domain: 'acme-holdings.example', name: 'Acme Holdings', architecture: 'house_of_brands' },
      brands: [
        {
          id: 'acme_rockets',
          url: 'https://rockets.acme-holdings.example',
          names: [{ en_US: 'Acme Rockets' }, { fr_FR: 'Fusées Acme' }],
          description: 'Rockets for every occasion',
          properties: [{ type: 'website', identifier: 'rockets.acme-holdings.example', primary: true }],
        },
        { id: 'acme_anvils', names: [{ en: 'Acme Anvils' }] },
      ],
      last_updated: '2026-02-01T00:00:00Z',
    };
  }

  it('accepts every published example and a house portfolio', () => {
    for (const [index, example] of examplesOf(vendoredSchemas().get(BRAND_SCHEMA_ID)!).entries()) {
      assert.deepEqual(validateSchema(BRAND_SCHEMA_ID, example), { valid: true, errors: [] }, `example ${index}`);
    }
    assert.deepEqual(validateSchema(BRAND_SCHEMA_ID, portfolio()), { valid: true, errors: [] });
  });

  it('reports a portfolio’s own errors', () => {
    const doc = portfolio();
    delete (doc.house as Partial<typeof doc.house>).name;
    doc.brands[1]!.id = 'Acme Anvils';
    assert.deepEqual(sorted(validateSchema(BRAND_SCHEMA_ID, doc).errors), [
      { path: '$.brands[1].id', pointer: '/brands/1/id', message: 'must match pattern "^[a-z0-9_]+$"' },
      { path: '$.house.name', pointer: '/house/name', message: 'is required' },
    ]);
  });

  it('judges a string house as a redirect', () => {
    assert.deepEqual(validateSchema(BRAND_SCHEMA_ID, { house: 'acme-holdings.example', colour: 'red' }).errors, [
      { path: '$.colour', pointer: '/colour', message: 'is not an allowed property here' },
    ]);
  });

  it('asks an agent-only file for one of its agent forms', () => {
    assert.deepEqual(validateSchema(BRAND_SCHEMA_ID, { version: '1.0' }).errors, [
      { path: '$', pointer: '', message: 'must have at least one of: agents, brand_agent' },
    ]);
  });
});

describe('change feed validation', () => {
  const event = {
    event_id: '0195a7c2-6a8e-7c3d-9b1a-2f4e5d6c7b8a',
    event_type: 'property.created',
    entity_type: 'property',
    entity_id: '0195a7c2-6a8e-7c3d-9b1a-000000000001',
    payload: {
      property_rid: '0195a7c2-6a8e-7c3d-9b1a-000000000001',
      classification: 'property',
      identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
    },
    actor: 'crawler',
    created_at: '2026-02-01T00:00:00Z',
  };
  const page = {
    events: [event],
    cursor: '0195a7c2-6a8e-7c3d-9b1a-2f4e5d6c7b8a',
    has_more: false,
    freshness: {
      generated_at: '2026-02-01T00:00:05Z',
      latest_event_created_at: '2026-02-01T00:00:00Z',
      lag_seconds: 5,
      retention_days: 90,
    },
  };

  it('accepts a page with an event', () => {
    assert.deepEqual(validateSchema(REGISTRY_FEED_RESPONSE_SCHEMA_ID, page), { valid: true, errors: [] });
  });

  it('reports the payload fields the event type needs', () => {
    const bad = clone(page);
    delete (bad.events[0]!.payload as Partial<typeof event.payload>).classification;
    assert.deepEqual(validateSchema(REGISTRY_FEED_RESPONSE_SCHEMA_ID, bad).errors, [
      {
        path: '$.events[0].payload.classification',
        pointer: '/events/0/payload/classification',
        message: 'is required',
      },
    ]);
  });

  it('reports an unknown event type once', () => {
    const { errors } = validateSchema(REGISTRY_EVENT_SCHEMA_ID, { ...event, event_type: 'property.exploded' });
    assert.equal(errors.length, 1);
    assert.equal(errors[0]!.path, '$.event_type');
    assert.match(errors[0]!.message, /^must be one of "property.created", /);
  });
});

describe('JSON paths', () => {
  it('uses brackets for indices and for names that are not identifiers', () => {
    assert.equal(jsonPath([]), '$');
    assert.equal(jsonPath(['authorized_agents', 0, 'url']), '$.authorized_agents[0].url');
    assert.equal(jsonPath(['tags', 'a b', '$ok']), '$.tags["a b"].$ok');
  });

  it('reads array indices from the document and unescapes pointer tokens', () => {
    const doc = { list: [{ 'a/b': 1 }], map: { '0': { '~x': 1 } } };
    assert.deepEqual(pointerSegments('/list/0/a~1b', doc), ['list', 0, 'a/b']);
    assert.deepEqual(pointerSegments('/map/0/~0x', doc), ['map', '0', '~x']);
  });
});

describe('published schema errata', () => {
  it('lets a format name standard and custom macros, which the published oneOf refused for matching both (adcp#5099)', () => {
    const format = (macros: unknown[]) => ({
      format_id: { agent_url: 'https://creative.example/mcp', id: 'banner' },
      name: 'Banner',
      supported_macros: macros,
    });
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/core/format.json', format(['CACHEBUSTER', 'CLICK_URL', 'PUBLISHER_SECTION'])),
      { valid: true, errors: [] },
    );
    const refused = validateSchema('/schemas/3.0.6/core/format.json', format(['CACHEBUSTER', 42]));
    assert.equal(refused.valid, false);
    assert.deepEqual([...new Set(refused.errors.map((e) => e.path))], ['$.supported_macros[1]']);
    const published = readJson(join(schemasDir, '3.0.6/core/format.json')) as {
      properties: { supported_macros: { items: Record<string, unknown> } };
    };
    assert.ok('oneOf' in published.properties.supported_macros.items, 'the vendored file itself is left as published');
  });
});

describe('the creative asset union, checked by asset_type', () => {
  const manifest = (asset: unknown) => ({
    format_id: { agent_url: 'https://creative.example/mcp', id: 'display_300x250' },
    assets: { slot: asset },
  });
  const errorsOf = (asset: unknown) =>
    validateSchema('/schemas/3.0.6/core/creative-manifest.json', manifest(asset)).errors;

  it('accepts each kind of asset by the schema its asset_type names', () => {
    for (const asset of [
      { asset_type: 'image', url: 'https://cdn.example/a.png', width: 300, height: 250 },
      { asset_type: 'text', content: 'Winter blend' },
      { asset_type: 'url', url: 'https://brand.example/landing' },
      { asset_type: 'html', content: '<div>ad</div>' },
      { asset_type: 'vast', delivery_type: 'url', url: 'https://ads.example/vast.xml' },
    ])
      assert.deepEqual(errorsOf(asset), [], JSON.stringify(asset));
  });

  it('answers what is wrong with an asset as the one schema it names sees it', () => {
    assert.deepEqual(errorsOf({ asset_type: 'image', url: 5, width: 300, height: 250 }), [
      { path: '$.assets.slot.url', pointer: '/assets/slot/url', message: 'must be string' },
    ]);
    assert.deepEqual(errorsOf({ asset_type: 'text' }), [
      { path: '$.assets.slot.content', pointer: '/assets/slot/content', message: 'is required' },
    ]);
    assert.deepEqual(errorsOf({ url: 'https://cdn.example/a.png' }), [
      { path: '$.assets.slot.asset_type', pointer: '/assets/slot/asset_type', message: 'is required' },
    ]);
    assert.match(
      errorsOf({ asset_type: 'imag', url: 'https://cdn.example/a.png' })[0]!.message,
      /must be one of "image"/,
    );
  });
});
