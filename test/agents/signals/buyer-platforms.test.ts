import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { demoSignalsPath, loadSignalsCatalog, type SignalsCatalog } from '../../../src/agents/signals/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { callerPool, ids, startSignals, type Caller } from './harness.ts';

const tradeDesk = { type: 'platform', platform: 'the-trade-desk' };
/** Platforms buyers' tools name (core/destination.json's examples among them) that the demo catalog carries. */
const buyersPlatforms = ['the-trade-desk', 'dv360', 'amazon-dsp', 'xandr', 'yahoo-dsp', 'google-ad-manager'];

/**
 * The signals agent as a buyer's tools meet it, over the demo catalog: targets on the platforms
 * they name, a target it cannot serve answered per target, and a spec that names no one.
 */
eachEngine('signals agent: the platforms buyers name', (engine) => {
  let server: TestServer;
  let catalog: SignalsCatalog;
  const callers = callerPool(() => server);
  let buyer: Caller;

  before(async () => {
    catalog = await loadSignalsCatalog(demoSignalsPath);
    server = await startSignals(engine, { clock: new ManualClock(), catalog });
    buyer = await callers.organization();
  });
  after(async () => {
    await callers.closeAll();
    await server.close();
  });

  it('lists the platforms buyers name in get_ap_capabilities', async () => {
    const answer = (await buyer.client.callTool({ name: 'get_ap_capabilities', arguments: {} })) as Json;
    const capabilities = JSON.parse(answer.content[0].text as string) as Json;
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/protocol/get-ap-capabilities-response.json', capabilities).errors,
      [],
    );
    const platforms = (capabilities.signals as Json).platforms as string[];
    for (const platform of buyersPlatforms)
      assert.ok(platforms.includes(platform), `${platform} in ${platforms.join(', ')}`);
  });

  it('answers get_signals for the trade desk with the signals it carries, each with its deployment there, under either name of the targets', async () => {
    const answer = await buyer.call('get_signals', {
      signal_spec: 'sports fans who stream',
      destinations: [tradeDesk],
      countries: ['US'],
    });
    const signals = answer.signals as Json[];
    assert.ok(signals.length > 5, `${signals.length} signals`);
    for (const signal of signals) {
      const [deployment, ...more] = signal.deployments as Json[];
      assert.deepEqual(
        [deployment!.type, deployment!.platform, more.length],
        ['platform', 'the-trade-desk', 0],
        signal.signal_agent_segment_id,
      );
      assert.equal(typeof deployment!.is_live, 'boolean');
    }
    assert.equal(answer.errors, undefined, 'nothing to say about a target it serves');
    const spec = await buyer.call('get_signals', {
      signal_spec: 'sports fans who stream',
      deliver_to: { deployments: [tradeDesk], countries: ['US'] },
    });
    assert.deepEqual(ids(spec.signals as Json[]), ids(signals));
  });

  it('reads a platform as buyers spell it: in any case, with spaces, or by its common alias', async () => {
    const expected = ids(await buyer.signals({ signal_spec: 'coffee lovers', destinations: [tradeDesk] }));
    for (const platform of ['TTD', 'The Trade Desk', 'thetradedesk']) {
      const answer = await buyer.call('get_signals', {
        signal_spec: 'coffee lovers',
        destinations: [{ type: 'platform', platform }],
      });
      assert.deepEqual(ids(answer.signals as Json[]), expected, platform);
      assert.equal(answer.errors, undefined);
      assert.ok(
        (answer.signals as Json[]).every((s) => (s.deployments as Json[])[0]!.platform === 'the-trade-desk'),
        'answered by the catalog’s identifier',
      );
    }
  });

  it('names each target it cannot serve in errors, never a silent empty list', async () => {
    const mixed = await buyer.call('get_signals', {
      signal_spec: 'coffee lovers',
      destinations: [tradeDesk, { type: 'platform', platform: 'criteo' }],
    });
    assert.ok((mixed.signals as Json[]).length > 0, 'the served target still gets its signals');
    const [error, ...others] = mixed.errors as Json[];
    assert.deepEqual(
      [error!.code, error!.field, error!.recovery, others.length],
      ['DEPLOYMENT_UNAUTHORIZED', 'destinations[1].platform', 'correctable', 0],
    );
    assert.match(error!.message as string, /"criteo"/);
    assert.match(error!.suggestion as string, /the-trade-desk/, 'the suggestion names the platforms it serves');

    const none = await buyer.call('get_signals', {
      signal_spec: 'coffee lovers',
      deliver_to: {
        deployments: [
          { type: 'platform', platform: 'criteo' },
          { type: 'platform', platform: 'quantcast' },
        ],
      },
    });
    assert.deepEqual(none.signals, []);
    assert.deepEqual(
      (none.errors as Json[]).map((e) => [e.code, e.field]),
      [
        ['DEPLOYMENT_UNAUTHORIZED', 'deliver_to.deployments[0].platform'],
        ['DEPLOYMENT_UNAUTHORIZED', 'deliver_to.deployments[1].platform'],
      ],
    );
  });

  it('refuses activate_signal on targets it cannot serve naming every one of them, and activates on the trade desk', async () => {
    const pending = catalog.signals.find(
      (s) =>
        s.signal_type === 'marketplace' &&
        s.platforms.some((p) => p.platform === 'the-trade-desk' && p.segment_id === undefined) &&
        !s.platforms.some((p) => p.platform === 'magnite'),
    )!;
    const refused = await buyer.fail('activate_signal', {
      idempotency_key: randomUUID(),
      signal_agent_segment_id: pending.signal_agent_segment_id,
      destinations: [{ type: 'platform', platform: 'criteo' }, tradeDesk, { type: 'platform', platform: 'magnite' }],
    });
    assert.deepEqual(
      [refused.code, refused.field],
      ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform'],
      'the first refused target',
    );
    const perTarget = (refused.details as Json).errors as Json[];
    assert.deepEqual(
      perTarget.map((e) => [e.code, e.field]),
      [
        ['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform'],
        ['ACTIVATION_FAILED', 'destinations[2].platform'],
      ],
      'criteo is not served; magnite is, but does not carry this signal',
    );
    assert.deepEqual(
      validateSchema('/schemas/3.0.6/signals/activate-signal-response.json', { errors: perTarget }).errors,
      [],
      'each as the error branch carries it',
    );
    assert.match(refused.message as string, /criteo/);
    assert.match(refused.message as string, /magnite/);

    const accepted = await buyer.activate({
      signal_agent_segment_id: pending.signal_agent_segment_id,
      destinations: [{ type: 'platform', platform: 'ttd' }],
    });
    assert.deepEqual(
      (accepted.deployments as Json[]).map((d) => [d.type, d.platform, d.is_live]),
      [['platform', 'the-trade-desk', false]],
      'under way on the trade desk',
    );
  });

  it('answers a spec that names no one ("audience", "people") with the broadest signals by coverage, saying so', async () => {
    const marketplace = catalog.signals.filter((s) => s.signal_type === 'marketplace');
    const widest = Math.max(...marketplace.map((s) => s.coverage_percentage));
    for (const signal_spec of ['audience', 'people', 'an audience of people']) {
      const answer = await buyer.call('get_signals', { signal_spec });
      const signals = answer.signals as Json[];
      assert.equal(signals.length, 50, signal_spec);
      assert.equal(signals[0]!.coverage_percentage, widest);
      assert.ok(
        signals.every(
          (s, i) => i === 0 || (signals[i - 1]!.coverage_percentage as number) >= (s.coverage_percentage as number),
        ),
        'broadest first',
      );
      assert.equal(answer.pagination.total_count, marketplace.length, 'every signal this buyer may see, paged');
      assert.match(answer.message as string, /No signal matched/);
    }
    // The rest of the request still narrows them.
    const narrowed = await buyer.call('get_signals', {
      signal_spec: 'audience',
      destinations: [{ type: 'platform', platform: 'magnite' }],
      filters: { max_cpm: 2 },
    });
    const signals = narrowed.signals as Json[];
    assert.ok(signals.length > 0);
    assert.ok(
      signals.every(
        (s) =>
          (s.deployments as Json[])[0]!.platform === 'magnite' &&
          (s.pricing_options as Json[]).some((o) => (o.cpm as number) <= 2),
      ),
    );
    // A spec that does name someone is ranked, with nothing to say.
    const ranked = await buyer.call('get_signals', { signal_spec: 'coffee lovers' });
    assert.equal(ranked.message, undefined);
    assert.match((ranked.signals as Json[])[0]!.name as string, /Coffee/);
  });
});
