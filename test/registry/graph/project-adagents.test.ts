import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { projectAdagents } from '../../../src/registry/graph/project-adagents.ts';
import { projectBrandJson } from '../../../src/registry/graph/project-brand-json.ts';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../../src/protocol/schemas.ts';

const file = {
  properties: [
    {
      property_id: 'site',
      property_type: 'website',
      name: 'Site',
      identifiers: [{ type: 'domain', value: 'Pub.Example' }],
      tags: ['news'],
    },
    { property_type: 'mobile_app', name: 'App', identifiers: [{ type: 'bundle_id', value: 'com.Pub.App' }] },
  ],
  authorized_agents: [
    { url: 'https://a.example/ap', authorized_for: 'x', authorization_type: 'property_ids', property_ids: ['site'] },
    {
      url: 'https://A.example:443/ap',
      authorized_for: 'x',
      authorization_type: 'property_ids',
      property_ids: ['site'],
    },
    { url: 'https://b.example/ap', authorized_for: 'x', authorization_type: 'property_tags', property_tags: ['news'] },
    {
      url: 'https://c.example/ap',
      authorized_for: 'x',
      authorization_type: 'inline_properties',
      properties: [{ property_type: 'ctv_app', name: 'TV', identifiers: [{ type: 'roku_store_id', value: '123' }] }],
    },
    {
      url: 'https://d.example/ap',
      authorized_for: 'x',
      authorization_type: 'publisher_properties',
      publisher_properties: [
        { publisher_domain: 'other.example', selection_type: 'by_tag', property_tags: ['sports'] },
        { publisher_domain: 'third.example', selection_type: 'all' },
      ],
    },
    {
      url: 'https://e.example/ap',
      authorized_for: 'x',
      authorization_type: 'signal_ids',
      signal_ids: ['auto_intenders'],
    },
  ],
};

describe('projectAdagents', () => {
  const p = projectAdagents('pub.example', 'https://pub.example/.well-known/adagents.json', file);

  it('keys properties by property_id, else by their first identifier, and takes in inline properties', () => {
    assert.ok(validateSchema(ADAGENTS_SCHEMA_ID, file).valid);
    assert.deepEqual(
      p.properties.map((x) => x.key),
      ['site', 'bundle_id:com.Pub.App', 'roku_store_id:123'],
    );
    // Domains compare case-insensitively; other identifiers keep their case.
    assert.deepEqual(p.properties[0]!.identifiers, [{ type: 'domain', value: 'pub.example' }]);
    assert.deepEqual(p.properties[0]!.tags, ['news']);
  });

  it('flattens each authorization type into scopes', () => {
    const scopes = Object.fromEntries(
      p.authorizations.map((a) => [a.key, a.scopes.map((s) => `${s.target_publisher} ${s.kind} ${s.value}`)]),
    );
    assert.deepEqual(scopes, {
      'https://a.example/ap|property_ids|0': ['pub.example property_id site'],
      // The same agent, spelled differently, is the same agent: a second grant of the same type.
      'https://a.example/ap|property_ids|1': ['pub.example property_id site'],
      'https://b.example/ap|property_tags|0': ['pub.example tag news'],
      'https://c.example/ap|inline_properties|0': ['pub.example rid roku_store_id:123'],
      'https://d.example/ap|publisher_properties|0': ['other.example tag sports', 'third.example all '],
      'https://e.example/ap|signal_ids|0': ['pub.example signal_id auto_intenders'],
    });
  });

  it('hashes the file canonically, so key order does not count as a change', () => {
    const reordered = { authorized_agents: file.authorized_agents, properties: file.properties };
    assert.equal(projectAdagents('pub.example', 'https://pub.example/x', reordered).document_hash, p.document_hash);
    assert.equal(p.manager_domain, null);
    assert.equal(projectAdagents('pub.example', 'https://cdn.example/pub.json', file).manager_domain, 'cdn.example');
  });
});

describe('projectBrandJson', () => {
  const doc = {
    house: {
      domain: 'house.example',
      name: 'House',
      agents: [{ type: 'sales', url: 'https://s.example/ap', id: 'sales', jwks_uri: 'https://s.example/jwks' }],
    },
    brands: [
      { id: 'master', names: [{ en: 'House Brand' }], keller_type: 'master' },
      {
        id: 'fizz',
        names: [{ en: 'Fizz' }, { fr: 'Pétillant' }],
        keller_type: 'sub_brand',
        properties: [
          { type: 'website', identifier: 'fizz.example' },
          { type: 'website', identifier: 'www.fizz.example' },
          { type: 'mobile_app', identifier: 'com.fizz', relationship: 'direct' },
        ],
      },
      { id: 'nodomain', names: [{ en: 'Nowhere' }], keller_type: 'endorsed' },
    ],
  };

  it('gives each brand a domain (its url, first owned website, or the house for the master) and its other sites as aliases', () => {
    assert.ok(validateSchema(BRAND_SCHEMA_ID, doc).valid);
    const p = projectBrandJson('house.example', doc);
    assert.equal(p.operator_domain, 'house.example');
    assert.deepEqual(
      p.brands.map((b) => [b.domain, b.brand_name, b.keller_type, b.aliases]),
      [
        ['house.example', 'House Brand', 'master', []],
        ['fizz.example', 'Fizz', 'sub_brand', ['www.fizz.example']],
      ],
    );
    assert.deepEqual(
      p.properties.map((x) => [x.brand_id, x.identifier, x.relationship]),
      [
        ['fizz', 'fizz.example', 'owned'],
        ['fizz', 'www.fizz.example', 'owned'],
        ['fizz', 'com.fizz', 'direct'],
      ],
    );
    assert.deepEqual(
      p.agents.map((a) => [a.agent_id, a.jwks_uri]),
      [['sales', 'https://s.example/jwks']],
    );
  });

  it('takes a site a brand lists twice as one alias', () => {
    const twice = {
      house: { domain: 'house.example', name: 'House' },
      brands: [
        {
          id: 'fizz',
          names: [{ en: 'Fizz' }],
          url: 'https://fizz.example/',
          properties: [
            { type: 'website', identifier: 'Shop.example' },
            { type: 'website', identifier: 'shop.example', relationship: 'owned' },
          ],
        },
      ],
    };
    assert.ok(validateSchema(BRAND_SCHEMA_ID, twice).valid);
    assert.deepEqual(
      projectBrandJson('house.example', twice).brands.map((b) => [b.domain, b.aliases]),
      [
        ['fizz.example', ['shop.example']],
        ['house.example', []],
      ],
    );
  });

  it('reads an agents-only file as the crawled domain’s own', () => {
    const p = projectBrandJson('buyer.example', { agents: [{ type: 'buying', url: 'https://b.example/ap', id: 'b' }] });
    assert.deepEqual(
      [p.operator_domain, p.brands, p.agents.map((a) => a.url_canonical)],
      ['buyer.example', [], ['https://b.example/ap']],
    );
  });
});
