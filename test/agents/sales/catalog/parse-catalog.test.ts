import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogError, parseCatalog } from '../../../../src/agents/sales/catalog/index.ts';

/** A minimal valid product, as YAML lines indented to sit under `products:`. */
function productYaml(
  id: string,
  pricing = '      - { pricing_option_id: cpm_fixed, pricing_model: cpm, currency: USD, fixed_price: 10 }',
): string {
  return [
    `  - product_id: ${id}`,
    `    name: Product ${id}`,
    '    description: A product',
    '    publisher_properties:',
    '      - { publisher_domain: dailyharbor.example, selection_type: by_id, property_ids: [harbor_web] }',
    '    format_ids:',
    '      - { agent_url: /creative/mcp, id: display_300x250 }',
    '    delivery_type: guaranteed',
    '    pricing_options:',
    pricing,
    '    reporting_capabilities:',
    '      available_reporting_frequencies: [daily]',
    '      expected_delay_minutes: 240',
    '      timezone: UTC',
    '      supports_webhooks: false',
    '      available_metrics: [impressions, spend]',
    '      date_range_support: date_range',
  ].join('\n');
}

function catalogYaml(...products: string[]): string {
  return `products:\n${products.join('\n')}\n`;
}

/** The CatalogError thrown for `text`, failing the test if none is. */
function problemsOf(text: string, source = 'catalog.yaml'): CatalogError {
  try {
    parseCatalog(text, source);
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  assert.fail('the catalog was accepted');
}

describe('parseCatalog', () => {
  it('accepts a valid YAML catalog and keeps its path-form agent_urls as written', () => {
    const catalog = parseCatalog(catalogYaml(productYaml('one'), productYaml('two')), 'catalog.yaml');
    assert.equal(catalog.source, 'catalog.yaml');
    assert.deepEqual(
      catalog.products.map((product) => product.product_id),
      ['one', 'two'],
    );
    assert.equal(catalog.products[0]!.format_ids[0]!.agent_url, '/creative/mcp');
    assert.ok(Object.isFrozen(catalog.products[0]!.pricing_options[0]));
  });

  it('reports a YAML syntax error with its line and column', () => {
    const text = ['products:', '  - product_id: one', '    name: Sports: on CTV', '    description: x', ''].join('\n');
    const error = problemsOf(text);
    assert.match(error.message, /^catalog\.yaml:3:11: \S/);
    assert.deepEqual([error.problems[0]!.line, error.problems[0]!.column], [3, 11]);
  });

  it('reports an alias used before its anchor at the alias', () => {
    const text = `${catalogYaml(productYaml('one'))}  - *later\n`;
    assert.match(problemsOf(text).message, new RegExp(`^catalog\\.yaml:${text.split('\n').length - 1}:5: `));
  });

  it('names the line, column and path of a schema violation in YAML', () => {
    const pricing = [
      '      - pricing_option_id: auction',
      '        pricing_model: cpm',
      '        currency: USD',
      '        floor_price: -1',
    ].join('\n');
    const text = catalogYaml(productYaml('one'), productYaml('two', pricing));
    const error = problemsOf(text);
    const line = text.split('\n').findIndex((l) => l.includes('floor_price: -1')) + 1;
    assert.equal(error.message, `catalog.yaml:${line}:9: products[1].pricing_options[0].floor_price: must be >= 0`);
  });

  it('names the line and path of a schema violation in JSON', () => {
    const product = (id: string, selection: string) => ({
      product_id: id,
      name: id,
      description: 'A product',
      publisher_properties: [
        { publisher_domain: 'dailyharbor.example', selection_type: selection, property_ids: ['harbor_web'] },
      ],
      format_ids: [{ agent_url: 'https://creative.example/mcp', id: 'display_300x250' }],
      delivery_type: 'guaranteed',
      pricing_options: [{ pricing_option_id: 'cpm_fixed', pricing_model: 'cpm', currency: 'USD', fixed_price: 10 }],
      reporting_capabilities: {
        available_reporting_frequencies: ['daily'],
        expected_delay_minutes: 240,
        timezone: 'UTC',
        supports_webhooks: false,
        available_metrics: ['impressions'],
        date_range_support: 'date_range',
      },
    });
    const text = JSON.stringify({ products: [product('one', 'by_id'), product('two', 'by_name')] }, null, '\t');
    const error = problemsOf(text, 'catalog.json');
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('"by_name"')) + 1;
    const column = lines[line - 1]!.indexOf('"selection_type"') + 1;
    assert.equal(
      error.message,
      `catalog.json:${line}:${column}: products[1].publisher_properties[0].selection_type: must be one of "all", "by_id", "by_tag"`,
    );
  });

  it('lists every problem, one per line, in the order they appear', () => {
    const text = catalogYaml(
      productYaml('one').replace('currency: USD', 'currency: usd'),
      productYaml('two').replace('delivery_type: guaranteed', 'delivery_type: sometimes'),
    );
    const lines = problemsOf(text).message.split('\n');
    assert.equal(lines.length, 2);
    assert.match(
      lines[0]!,
      /^catalog\.yaml:\d+:\d+: products\[0\]\.pricing_options\[0\]\.currency: must match pattern/,
    );
    assert.match(
      lines[1]!,
      /^catalog\.yaml:\d+:\d+: products\[1\]\.delivery_type: must be one of "guaranteed", "non_guaranteed"$/,
    );
  });

  it('rejects a duplicate product id at the second one', () => {
    const text = catalogYaml(productYaml('same'), productYaml('same'));
    const line = text.split('\n').lastIndexOf('  - product_id: same') + 1;
    assert.equal(
      problemsOf(text).message,
      `catalog.yaml:${line}:5: products[1].product_id: "same" is already the id of products[0]`,
    );
  });

  it('rejects a duplicate pricing_option_id within a product, and a fixed price with a floor', () => {
    const pricing = [
      '      - { pricing_option_id: a, pricing_model: cpm, currency: USD, fixed_price: 10 }',
      '      - { pricing_option_id: a, pricing_model: vcpm, currency: USD, fixed_price: 12, floor_price: 5 }',
    ].join('\n');
    const error = problemsOf(catalogYaml(productYaml('one', pricing)));
    assert.deepEqual(
      error.problems.map((problem) => `${problem.path}: ${problem.message}`),
      [
        'products[0].pricing_options[1].pricing_option_id: "a" is already the id of pricing_options[0]',
        'products[0].pricing_options[1].floor_price: must not be given with fixed_price (a floor is for auction pricing)',
      ],
    );
  });

  it('allows the same pricing_option_id in different products', () => {
    assert.equal(parseCatalog(catalogYaml(productYaml('one'), productYaml('two')), 'c.yaml').products.length, 2);
  });

  it('rejects a catalog without products, and unknown top-level keys', () => {
    assert.equal(problemsOf('products: []\n').message, 'catalog.yaml:1:1: products: must list at least one product');
    assert.equal(problemsOf('').message, 'catalog.yaml:1:1: $: must be a mapping with a `products` list');
    assert.equal(
      problemsOf(`${catalogYaml(productYaml('one'))}product: {}\n`).message,
      `catalog.yaml:${catalogYaml(productYaml('one')).split('\n').length}:1: product: is not an allowed property here`,
    );
  });

  it('accepts only path-form agent_urls as the relaxation, not other relative forms', () => {
    const text = catalogYaml(productYaml('one').replace('agent_url: /creative/mcp', 'agent_url: creative/mcp'));
    assert.match(problemsOf(text).message, /products\[0\]\.format_ids\[0\]\.agent_url: must be a valid uri$/);
  });

  it('caps the list of problems and says how many more there are', () => {
    const products = Array.from({ length: 25 }, (_, i) =>
      productYaml(`p${i}`).replace('delivery_type: guaranteed', 'delivery_type: soon'),
    );
    const lines = problemsOf(catalogYaml(...products)).message.split('\n');
    assert.equal(lines.length, 21);
    assert.equal(lines[20], '(5 more not shown)');
  });
});
