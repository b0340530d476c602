import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CatalogError,
  catalogPlatformDeployment,
  GET_SIGNALS_RESPONSE_SCHEMA_ID,
  parseSignalsCatalog,
  toWireSignal,
} from '../../../../src/agents/signals/catalog/index.ts';
import { validateSchema } from '../../../../src/protocol/schemas.ts';

/** A valid signal as YAML lines under `signals:`, with `extra` lines appended to it. */
function signalYaml(id: string, { type = 'marketplace', cpm = 2.5, extra = [] as string[] } = {}): string {
  return [
    `  - signal_agent_segment_id: seg_${id}`,
    `    signal_id: {source: catalog, data_provider_domain: audiencegraph.example, id: ${id}}`,
    `    name: Signal ${id}`,
    '    description: A signal',
    '    value_type: binary',
    `    signal_type: ${type}`,
    '    data_provider: AudienceGraph',
    '    coverage_percentage: 4.2',
    '    pricing_options:',
    `      - {pricing_option_id: seg_${id}_cpm, model: cpm, cpm: ${cpm}, currency: USD}`,
    '    category: in_market',
    '    taxonomy: [automotive, in-market]',
    '    keywords: [car shoppers]',
    '    countries: [US, CA]',
    '    platforms:',
    '      - {platform: tradeflow-dsp, segment_id: tf-123, activation_minutes: 0}',
    '      - {platform: northstar-dsp, activation_minutes: 240}',
    ...extra,
  ].join('\n');
}

const catalogYaml = (...signals: string[]) => `signals:\n${signals.join('\n')}\n`;
const lineOf = (text: string, needle: string, from = 0) =>
  text.split('\n').findIndex((line, index) => index >= from && line.includes(needle)) + 1;

/** The CatalogError thrown for `text`, failing the test if none is. */
function problemsOf(text: string): CatalogError {
  try {
    parseSignalsCatalog(text, 'signals.yaml');
  } catch (error) {
    if (error instanceof CatalogError) return error;
    throw error;
  }
  assert.fail('the catalog was accepted');
}

describe('parseSignalsCatalog', () => {
  it('accepts a valid catalog, frozen, and maps an entry to a valid response item', () => {
    const catalog = parseSignalsCatalog(
      catalogYaml(
        signalYaml('one'),
        signalYaml('two', { type: 'custom', extra: ['    principals: [bluepeak-motors]'] }),
      ),
      'signals.yaml',
    );
    assert.deepEqual(
      catalog.signals.map((s) => s.signal_agent_segment_id),
      ['seg_one', 'seg_two'],
    );
    assert.ok(Object.isFrozen(catalog.signals[1]));
    const item = toWireSignal(catalog.signals[0]!, {
      baseUrl: 'https://ap.example',
      deployments: catalog.signals[0]!.platforms.map(catalogPlatformDeployment),
    });
    assert.deepEqual(validateSchema(GET_SIGNALS_RESPONSE_SCHEMA_ID, { signals: [item] }).errors, []);
    assert.deepEqual(item.deployments, [
      {
        type: 'platform',
        platform: 'tradeflow-dsp',
        is_live: true,
        activation_key: { type: 'segment_id', segment_id: 'tf-123' },
      },
      { type: 'platform', platform: 'northstar-dsp', is_live: false, estimated_activation_duration_minutes: 240 },
    ]);
    assert.deepEqual(item.pricing, { cpm: 2.5, currency: 'USD' });
  });

  it('names the line and path of a wire field of the wrong type', () => {
    const text = catalogYaml(
      signalYaml('one'),
      signalYaml('two').replace('coverage_percentage: 4.2', 'coverage_percentage: high'),
    );
    assert.equal(
      problemsOf(text).message,
      `signals.yaml:${lineOf(text, 'coverage_percentage: high')}:5: signals[1].coverage_percentage: must be number`,
    );
  });

  it('names the line of a published value out of its enum and of a bad signal id', () => {
    const text = catalogYaml(
      signalYaml('one')
        .replace('signal_type: marketplace', 'signal_type: licensed')
        .replace('id: one}', 'id: "one two"}'),
    );
    const lines = problemsOf(text).message.split('\n');
    assert.match(
      lines[0]!,
      new RegExp(
        `^signals\\.yaml:${lineOf(text, 'signal_id:')}:\\d+: signals\\[0\\]\\.signal_id\\.id: must match pattern`,
      ),
    );
    assert.equal(
      lines[1],
      `signals.yaml:${lineOf(text, 'signal_type:')}:5: signals[0].signal_type: must be one of "marketplace", "custom", "owned"`,
    );
  });

  it('refuses an unknown field and a bad catalog-only field at their lines', () => {
    const text = catalogYaml(
      signalYaml('one', { extra: ['    coverage_percent: 3'] })
        .replace('countries: [US, CA]', 'countries: [US, usa]')
        .replace('category: in_market', 'category: intent'),
    );
    assert.deepEqual(problemsOf(text).message.split('\n'), [
      `signals.yaml:${lineOf(text, 'category:')}:5: signals[0].category: must be one of "demographics", "interests", "in_market", "life_events", "geography", "behaviours", "b2b", "contextual"`,
      `signals.yaml:${lineOf(text, 'countries:')}:21: signals[0].countries[1]: must be an ISO 3166-1 alpha-2 code such as US`,
      `signals.yaml:${lineOf(text, 'coverage_percent:')}:5: signals[0].coverage_percent: is not an allowed property here`,
    ]);
  });

  it('holds each type to its rules: marketplace priced by CPM, custom with principals, owned with an owner and no cost', () => {
    const marketplace = signalYaml('m').replace(
      'model: cpm, cpm: 2.5',
      'model: flat_fee, amount: 500, period: monthly',
    );
    const custom = signalYaml('c', { type: 'custom' });
    const owned = signalYaml('o', {
      type: 'owned',
      cpm: 1,
      extra: ['    owner: northwind-outfitters', '    principals: [someone]'],
    });
    const text = catalogYaml(marketplace, custom, owned);
    assert.deepEqual(problemsOf(text).message.split('\n'), [
      `signals.yaml:${lineOf(text, 'pricing_options:')}:5: signals[0].pricing_options: must include a cpm option: a marketplace signal is licensed per thousand impressions`,
      `signals.yaml:${lineOf(text, 'signal_agent_segment_id: seg_c')}:5: signals[1].principals: is required: a custom signal is visible only to the principal accounts it was built for`,
      `signals.yaml:${lineOf(text, 'pricing_option_id: seg_o_cpm')}:9: signals[2].pricing_options[0]: must be a cpm option of 0: an owned signal costs its owner nothing`,
      `signals.yaml:${lineOf(text, 'principals: [someone]')}:5: signals[2].principals: is not for a owned signal`,
    ]);
  });

  it('refuses repeated segment ids, signal ids and pricing option ids across the catalog', () => {
    const text = catalogYaml(signalYaml('one'), signalYaml('one'));
    const second = lineOf(text, 'signal_agent_segment_id: seg_one', 2);
    assert.deepEqual(problemsOf(text).message.split('\n'), [
      `signals.yaml:${second}:5: signals[1].signal_agent_segment_id: "seg_one" is already the id of signals[0]`,
      `signals.yaml:${second + 1}:5: signals[1].signal_id: is already the signal_id of signals[0]`,
      `signals.yaml:${lineOf(text, 'pricing_option_id', second)}:10: signals[1].pricing_options[0].pricing_option_id: "seg_one_cpm" is already the id of signals[0].pricing_options[0]`,
    ]);
  });

  it('takes an agent-native id by path on this deployment and makes it absolute on the wire', () => {
    const text = catalogYaml(
      signalYaml('one', { type: 'owned', cpm: 0, extra: ['    owner: public-test'] }).replace(
        '{source: catalog, data_provider_domain: audiencegraph.example, id: one}',
        '{source: agent, agent_url: /signals/mcp, id: one}',
      ),
    );
    const [signal] = parseSignalsCatalog(text, 'signals.yaml').signals;
    assert.deepEqual(toWireSignal(signal!, { baseUrl: 'https://ap.example/', deployments: [] }).signal_id, {
      source: 'agent',
      agent_url: 'https://ap.example/signals/mcp',
      id: 'one',
    });
  });
});
