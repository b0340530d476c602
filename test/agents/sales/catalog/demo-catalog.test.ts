import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it } from 'node:test';
import {
  demoCatalogPath,
  loadCatalogFile,
  PRODUCT_SCHEMA_ID,
  resolveProducts,
} from '../../../../src/agents/sales/catalog/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';

const adagentsDir = resolve(import.meta.dirname, '../../../../src/registry/demo/world/adagents');

interface DemoProperty {
  property_id: string;
  tags?: string[];
}

const meridian = 'https://sales.meridian-sales.example/mcp';

interface DemoGrant {
  url: string;
  authorization_type: string;
  property_ids?: string[];
  property_tags?: string[];
}

/** Whether the publisher's adagents.json authorizes Meridian for the property (grants by id or tag, as the demo's are). */
function authorizesMeridian(domain: string, property: DemoProperty): boolean {
  const document = JSON.parse(readFileSync(join(adagentsDir, `${domain}.json`), 'utf8')) as {
    authorized_agents: DemoGrant[];
  };
  return document.authorized_agents.some(
    (grant) =>
      grant.url === meridian &&
      (grant.property_ids?.includes(property.property_id) ||
        grant.property_tags?.some((tag) => property.tags?.includes(tag))),
  );
}

/** The demo world's publishers: domain → their declared properties. */
function demoPublishers(): Map<string, DemoProperty[]> {
  const publishers = new Map<string, DemoProperty[]>();
  for (const file of readdirSync(adagentsDir)) {
    const document = JSON.parse(readFileSync(join(adagentsDir, file), 'utf8')) as { properties?: DemoProperty[] };
    publishers.set(file.replace(/\.json$/, ''), document.properties ?? []);
  }
  return publishers;
}

const creativeFormats = [
  'display_300x250',
  'display_728x90',
  'display_320x50',
  'display_160x600',
  'display_300x600',
  'video_15s',
  'video_30s',
  'ctv_video_30s',
  'audio_30s',
  'native_in_feed',
  'dooh_1920x1080',
];

describe('the demo catalog', async () => {
  const catalog = await loadCatalogFile(demoCatalogPath);
  const products = resolveProducts(catalog, 'https://ap.example');

  it('loads, and every product with its agent_urls resolved is a valid core/product.json', () => {
    assert.ok(products.length >= 16 && products.length <= 24, `${products.length} products`);
    for (const product of products) {
      assert.deepEqual(validateSchema(PRODUCT_SCHEMA_ID, product).errors, [], product.product_id);
    }
  });

  it('names only publishers, property ids and tags of the demo world', () => {
    const publishers = demoPublishers();
    for (const product of products) {
      for (const selector of product.publisher_properties) {
        const properties = publishers.get(selector.publisher_domain);
        assert.ok(properties, `${product.product_id}: no demo publisher ${selector.publisher_domain}`);
        if (selector.selection_type === 'by_id') {
          for (const id of selector.property_ids) {
            assert.ok(
              properties.some((p) => p.property_id === id),
              `${product.product_id}: ${selector.publisher_domain} has no property ${id}`,
            );
          }
        } else if (selector.selection_type === 'by_tag') {
          for (const tag of selector.property_tags) {
            assert.ok(
              properties.some((p) => p.tags?.includes(tag)),
              `${product.product_id}: no property of ${selector.publisher_domain} is tagged ${tag}`,
            );
          }
        }
      }
    }
  });

  it('sells only properties the publishers authorize Meridian for, as a buyer checking adagents.json finds', () => {
    const publishers = demoPublishers();
    for (const product of products) {
      for (const selector of product.publisher_properties) {
        const properties = publishers.get(selector.publisher_domain)!;
        const selected = properties.filter((p) =>
          selector.selection_type === 'by_id'
            ? selector.property_ids.includes(p.property_id)
            : selector.selection_type === 'by_tag'
              ? selector.property_tags.some((tag) => p.tags?.includes(tag))
              : true,
        );
        for (const property of selected)
          assert.ok(
            authorizesMeridian(selector.publisher_domain, property),
            `${product.product_id}: ${selector.publisher_domain} does not authorize Meridian for ${property.property_id}`,
          );
      }
    }
  });

  it("uses only the demo creative agent's formats, on this deployment's creative agent", () => {
    for (const product of products) {
      for (const format of product.format_ids) {
        assert.ok(creativeFormats.includes(format.id), `${product.product_id}: unknown format ${format.id}`);
        assert.equal(format.agent_url, 'https://ap.example/creative/mcp');
      }
    }
  });

  it('offers both delivery types, fixed and auction CPM, and another pricing model, in USD', () => {
    const options = products.flatMap((product) => product.pricing_options);
    assert.deepEqual(
      new Set(products.map((product) => product.delivery_type)),
      new Set(['guaranteed', 'non_guaranteed']),
    );
    assert.ok(options.some((option) => option.pricing_model === 'cpm' && option.fixed_price !== undefined));
    assert.ok(options.some((option) => option.pricing_model === 'cpm' && option.floor_price !== undefined));
    assert.ok(options.some((option) => option.pricing_model !== 'cpm'));
    assert.ok(options.every((option) => option.currency === 'USD'));
  });

  it('has unique product ids a buyer can refer to', () => {
    const ids = products.map((product) => product.product_id);
    assert.equal(new Set(ids).size, ids.length);
  });
});
