import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCatalog, resolveProducts } from '../../../../src/agents/sales/catalog/index.ts';

const catalog = parseCatalog(
  JSON.stringify({
    products: [
      {
        product_id: 'one',
        name: 'One',
        description: 'A product',
        publisher_properties: [{ publisher_domain: 'dailyharbor.example', selection_type: 'all' }],
        format_ids: [
          { agent_url: '/creative/mcp', id: 'display_300x250' },
          { agent_url: 'https://creative.partner.example/mcp', id: 'display_728x90' },
        ],
        placements: [
          { placement_id: 'top', name: 'Top', format_ids: [{ agent_url: '/creative/mcp', id: 'display_728x90' }] },
        ],
        delivery_type: 'non_guaranteed',
        pricing_options: [{ pricing_option_id: 'auction', pricing_model: 'cpm', currency: 'USD', floor_price: 2 }],
        reporting_capabilities: {
          available_reporting_frequencies: ['daily'],
          expected_delay_minutes: 240,
          timezone: 'UTC',
          supports_webhooks: false,
          available_metrics: ['impressions'],
          date_range_support: 'date_range',
        },
      },
    ],
  }),
  'catalog.json',
);

describe('resolveProducts', () => {
  it('makes path agent_urls absolute on this deployment and leaves absolute ones alone', () => {
    const [product] = resolveProducts(catalog, 'https://ap.example');
    assert.deepEqual(
      product!.format_ids.map((format) => format.agent_url),
      ['https://ap.example/creative/mcp', 'https://creative.partner.example/mcp'],
    );
    const placements = product!['placements'] as { format_ids: { agent_url: string }[] }[];
    assert.equal(placements[0]!.format_ids[0]!.agent_url, 'https://ap.example/creative/mcp');
    assert.equal(catalog.products[0]!.format_ids[0]!.agent_url, '/creative/mcp', 'the catalog itself is unchanged');
  });

  it('keeps a base URL prefix and drops a trailing slash', () => {
    assert.equal(
      resolveProducts(catalog, 'https://ap.example/tenant/')[0]!.format_ids[0]!.agent_url,
      'https://ap.example/tenant/creative/mcp',
    );
  });

  it('computes once per base URL and hands out read-only products', () => {
    const first = resolveProducts(catalog, 'https://a.example');
    assert.equal(resolveProducts(catalog, 'https://a.example'), first);
    assert.notEqual(resolveProducts(catalog, 'https://b.example'), first);
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first[0]!.format_ids[0]));
    assert.throws(() => {
      (first[0]!.format_ids[0] as { agent_url: string }).agent_url = 'https://evil.example';
    }, TypeError);
  });
});
