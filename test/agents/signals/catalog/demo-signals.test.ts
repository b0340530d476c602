import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  catalogPlatformDeployment,
  demoSignalsPath,
  GET_SIGNALS_RESPONSE_SCHEMA_ID,
  loadSignalsCatalog,
  signalCategories,
  toWireSignal,
  type CatalogSignal,
} from '../../../../src/agents/signals/catalog/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';

/** The deployment's origin, under which a path-form agent_url such as /signals/mcp is resolved. */
const baseUrl = 'https://ap.example';

describe('the demo signals catalog', async () => {
  const catalog = await loadSignalsCatalog(demoSignalsPath);
  const { signals } = catalog;

  it('loads at least 500 signals from at least 8 data providers, frozen', () => {
    assert.equal(catalog.source, demoSignalsPath);
    assert.ok(signals.length >= 500, `${signals.length} signals`);
    const providers = new Set(
      signals
        .filter((s) => s.signal_id.source === 'catalog')
        .map((s) => (s.signal_id as { data_provider_domain: string }).data_provider_domain),
    );
    assert.ok(providers.size >= 8, `${providers.size} providers`);
    assert.ok([...providers].every((domain) => domain.endsWith('.example')));
    assert.ok(Object.isFrozen(signals[0]!.pricing_options[0]));
  });

  it('has every category, each with many signals, and all three types', () => {
    for (const category of signalCategories) {
      const count = signals.filter((s) => s.category === category).length;
      assert.ok(count >= 20, `${category}: ${count}`);
    }
    assert.deepEqual(new Set(signals.map((s) => s.signal_type)), new Set(['marketplace', 'custom', 'owned']));
  });

  it('prices marketplace signals by CPM, keeps custom ones to named principals and owned ones free to their owner', () => {
    for (const signal of signals) {
      if (signal.signal_type === 'marketplace')
        assert.ok(
          signal.pricing_options.some((o) => o.model === 'cpm' && o.cpm! > 0),
          signal.signal_agent_segment_id,
        );
      if (signal.signal_type === 'custom') assert.ok(signal.principals.length > 0);
      if (signal.signal_type === 'owned') assert.ok(signal.owner && signal.pricing_options.every((o) => o.cpm === 0));
    }
  });

  it('covers the briefs a planner brings: ages, income, parents, intents, life events, cities, firmographics', () => {
    const named = (pattern: RegExp) => signals.filter((s) => pattern.test(s.name)).length;
    for (const pattern of [
      /25-34/,
      /Household income/,
      /Parents/,
      /Graduate degree/,
      /In-market: Electric vehicles/,
      /In-market: Trips to Europe/,
      /In-market: Mortgages/,
      /In-market: TVs/,
      /In-market: Home shoppers/,
      /New movers/,
      /New parents/,
      /Recently engaged/,
      /Recently retired/,
      /Residents of Germany/,
      /London metro/,
      /Company size/,
      /Industry: Healthcare/,
      /Seniority: C-suite/,
      /Job function: IT/,
      /Contextual: Recipes/,
      /Cord cutters/,
    ]) {
      assert.ok(named(pattern) > 0, `nothing named ${pattern}`);
    }
    assert.ok(signals.some((s) => s.value_type === 'categorical') && signals.some((s) => s.value_type === 'numeric'));
  });

  it('says per signal where it is available, with varied reach and prices', () => {
    assert.ok(signals.every((s) => s.countries.length > 0 && s.platforms.length > 0));
    const reaches = signals.map((s) => s.coverage_percentage);
    assert.ok(Math.min(...reaches) < 1 && Math.max(...reaches) > 40);
    assert.ok(new Set(signals.map((s) => s.pricing_options[0]!.cpm)).size > 100);
  });

  it('maps every signal to a get_signals item valid against the published response schema, without catalog-only fields', () => {
    const wire = signals.map((signal: CatalogSignal) =>
      toWireSignal(signal, { baseUrl, deployments: signal.platforms.map(catalogPlatformDeployment) }),
    );
    assert.deepEqual(validateSchema(GET_SIGNALS_RESPONSE_SCHEMA_ID, { signals: wire }).errors, []);
    for (const item of wire) {
      for (const field of ['category', 'taxonomy', 'keywords', 'countries', 'platforms', 'principals', 'owner'])
        assert.ok(!(field in item), `${item.signal_agent_segment_id} sends ${field}`);
    }
    const agentNative = wire.find((item) => item.signal_type === 'owned')!;
    assert.deepEqual(agentNative.signal_id, {
      source: 'agent',
      agent_url: 'https://ap.example/signals/mcp',
      id: (agentNative.signal_id as { id: string }).id,
    });
    const marketplace = wire.find((item) => item.signal_type === 'marketplace')!;
    assert.deepEqual(marketplace.pricing, {
      cpm: marketplace.pricing_options[0]!.cpm,
      currency: marketplace.pricing_options[0]!.currency,
    });
  });
});
