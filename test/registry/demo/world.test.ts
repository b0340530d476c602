import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ADAGENTS_SCHEMA_ID, BRAND_SCHEMA_ID, validateSchema } from '../../../src/protocol/schemas.ts';
import { loadWorld, worldDir } from '../../../src/registry/demo/world.ts';
import { validateAdagents } from '../../../src/registry/documents/adagents-validation/validate.ts';
import type { Json } from '../../support/http.ts';
import { salesPaths } from './world-paths.ts';

describe('the demo world', () => {
  const world = loadWorld();
  const doc = (file: { document: Record<string, unknown> }) => file.document as Json;
  const adagents = [...world.earlier, ...world.publishers];
  const agentsOf = (doc: Json) => doc['authorized_agents'] as Json[];
  const propertiesOf = (doc: Json) => (doc['properties'] ?? []) as Json[];

  it('is valid against the published adagents.json and brand.json schemas, and draws no warning', () => {
    for (const { url, document } of adagents) {
      assert.deepEqual(validateSchema(ADAGENTS_SCHEMA_ID, document).errors, [], url);
      // Dates are judged against today, which moves; every other warning is a mistake in the data.
      const warnings = validateAdagents(document).warnings.filter((w) => !w.code?.startsWith('last_updated_'));
      assert.deepEqual(warnings, [], url);
    }
    for (const { url, document } of world.brands)
      assert.deepEqual(validateSchema(BRAND_SCHEMA_ID, document).errors, [], url);
  });

  it('is about 4 houses, 6 publishers and 4 operators, all under .example', () => {
    const operators = world.brands.filter((b) => (doc(b)['house'].agents ?? []).length > 0);
    const houses = world.brands.filter((b) => !operators.includes(b));
    assert.equal(world.publishers.length, 6);
    assert.equal(houses.length, 4);
    assert.equal(operators.length, 4);
    for (const { domain } of [...adagents, ...world.brands]) assert.match(domain, /\.example$/);
    for (const operator of operators) {
      const house = doc(operator)['house'];
      for (const agent of house.agents) assert.equal(agent.url, `https://sales.${house.domain}/mcp`);
    }
  });

  it('has houses with sub-brands, and publishers with web, app and CTV properties, tags and collections', () => {
    const kellerTypes = new Set(
      world.brands.flatMap((b) => (doc(b)['brands'] as Json[]).map((brand) => brand['keller_type'])),
    );
    assert.deepEqual([...kellerTypes].sort(), ['endorsed', 'independent', 'master', 'sub_brand']);
    const properties = world.publishers.flatMap((p) => propertiesOf(p.document));
    for (const type of ['website', 'mobile_app', 'ctv_app'])
      assert.ok(
        properties.some((p) => p['property_type'] === type),
        type,
      );
    const identifierTypes = new Set(properties.flatMap((p) => (p['identifiers'] as Json[]).map((i) => i['type'])));
    for (const type of ['domain', 'ios_bundle', 'android_package', 'roku_store_id'])
      assert.ok(identifierTypes.has(type), type);
    assert.ok(world.publishers.some((p) => (doc(p)['collections'] ?? []).length > 0));
    assert.ok(properties.every((p) => (p['tags'] ?? []).length > 0));
  });

  it('authorizes agents with every delegation type and selection, some with signing keys', () => {
    const entries = world.publishers.flatMap((p) => agentsOf(p.document));
    assert.deepEqual([...new Set(entries.map((a) => a['delegation_type']))].sort(), [
      'ad_network',
      'delegated',
      'direct',
    ]);
    assert.deepEqual([...new Set(entries.map((a) => a['authorization_type']))].sort(), [
      'inline_properties',
      'property_ids',
      'property_tags',
      'publisher_properties',
    ]);
    const selections = entries
      .flatMap((a) => (a['publisher_properties'] ?? []) as Json[])
      .map((s) => s['selection_type']);
    assert.deepEqual([...new Set(selections)].sort(), ['by_id', 'by_tag']);
    assert.ok(entries.some((a) => a['signing_keys']?.length > 0));
  });

  it('has operators declare properties with every relationship, matching the publishers but for one mismatch and one undeclared property', () => {
    const relationships = world.brands.flatMap((b) =>
      (doc(b)['brands'] as Json[]).flatMap((brand) =>
        ((brand['properties'] ?? []) as Json[]).map((p) => p['relationship']),
      ),
    );
    assert.deepEqual([...new Set(relationships.filter(Boolean))].sort(), [
      'ad_network',
      'delegated',
      'direct',
      'owned',
    ]);
    const paths = salesPaths(world);
    assert.ok(paths.length > 15);
    const off = paths.filter((p) => p.relationship !== p.delegation_type);
    assert.deepEqual(off, [
      {
        publisher: 'dailyharbor.example',
        property: 'harbor_tv',
        agent: 'https://sales.streamline-ctv.example/mcp',
        delegation_type: 'delegated',
        relationship: 'direct',
      },
      {
        publisher: 'trailmag.example',
        property: 'gear.trailmag.example',
        agent: 'https://sales.cobalt-direct.example/mcp',
        delegation_type: 'direct',
        relationship: undefined,
      },
    ]);
  });

  it('keeps an earlier file of one publisher that declared one property more than its current one', () => {
    assert.equal(world.earlier.length, 1);
    const [earlier] = world.earlier;
    const current = world.publishers.find((p) => p.domain === earlier!.domain)!;
    const ids = (doc: Json) => propertiesOf(doc).map((p) => p['property_id']);
    assert.deepEqual(
      ids(earlier!.document).filter((id) => !ids(current.document).includes(id)),
      ['metro_events'],
    );
    assert.deepEqual(
      ids(current.document).filter((id) => !ids(earlier!.document).includes(id)),
      [],
    );
  });

  it('refuses to load a file the schema refuses, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ap-demo-world-'));
    try {
      cpSync(worldDir, dir, { recursive: true });
      writeFileSync(
        join(dir, 'adagents', 'broken.example.json'),
        JSON.stringify({ authorized_agents: [{ url: 'https://x.example/mcp' }] }),
      );
      assert.throws(
        () => loadWorld(dir),
        /demo world: .*broken\.example\.json does not match \/schemas\/3\.0\.6\/adagents\.json/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
