import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { textBounds } from '../../../src/agents/runtime/index.ts';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { a2aClient, sendSkill } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { engines } from '../../support/engines.ts';
import type { Json } from '../../support/http.ts';
import type { TestServer } from '../../support/server.ts';
import { activationMinutes, callerPool, ids, publicToken, sorted, startSignals, type Caller } from './harness.ts';

const GET_SIGNALS_RESPONSE = '/schemas/3.0.6/signals/get-signals-response.json';
/** The spec every signal of the test catalog matches. */
const everything = { signal_spec: 'zephyr' };
const marketplace = ['agr_runners', 'agr_ev_intenders', 'lum_coffee', 'lum_pets'];

// get_signals only reads activations (what they change is in the activation tests, on both engines).
describe('signals agent: get_signals', () => {
  let server: TestServer;
  const callers = callerPool(() => server);
  let publicTest: Caller;
  let acme: Caller;
  let stranger: Caller;
  const agentUrl = 'https://sales.buyer.example/mcp';

  before(async () => {
    server = await startSignals(engines[0]!, { clock: new ManualClock() });
    publicTest = await callers.publicTest();
    acme = await callers.organization('acme');
    stranger = await callers.organization();
  });
  after(async () => {
    await callers.closeAll();
    await server.close();
  });

  it('finds the signals a spec describes, best first, as the wire shows them', async () => {
    const signals = await publicTest.signals({ signal_spec: 'marathon runners', deliver_to: { countries: ['US'] } });
    assert.equal(ids(signals)[0], 'agr_runners');
    const runners = signals[0]!;
    assert.deepEqual(runners.signal_id, {
      source: 'catalog',
      data_provider_domain: 'audiencegraph.example',
      id: 'runners',
    });
    assert.equal(runners.name, 'Running enthusiasts');
    assert.equal(runners.signal_type, 'marketplace');
    assert.equal(runners.data_provider, 'AudienceGraph');
    assert.equal(runners.coverage_percentage, 12);
    assert.deepEqual(runners.pricing, { cpm: 2.5, currency: 'USD' }, 'the spec’s CPM and currency');
    for (const field of ['category', 'taxonomy', 'keywords', 'countries', 'platforms', 'principals', 'owner'])
      assert.equal(runners[field], undefined, `${field} stays in the catalog`);
    assert.ok(
      !ids(await publicTest.signals({ signal_spec: 'espresso' })).includes('agr_runners'),
      'a spec about something else does not find it',
    );
  });

  it('narrows by each filter', async () => {
    const found = async (filters: Json) => sorted(ids(await publicTest.signals({ ...everything, filters })));
    assert.deepEqual(await found({ catalog_types: ['marketplace'] }), sorted(marketplace));
    assert.deepEqual(await found({ catalog_types: ['custom'] }), ['cst_public_weekend']);
    assert.deepEqual(await found({ catalog_types: ['owned'] }), [], 'public-test owns nothing');
    assert.deepEqual(
      await found({ data_providers: ['Lumen Data'] }),
      ['lum_coffee', 'lum_pets'],
      'by the provider’s name',
    );
    assert.deepEqual(
      await found({ data_providers: ['AUDIENCEGRAPH.example'] }),
      ['agr_ev_intenders', 'agr_runners'],
      'by its domain, either case',
    );
    assert.deepEqual(await found({ max_cpm: 3 }), ['agr_runners', 'lum_coffee', 'lum_pets']);
    // Percent-of-media caps apply to signals priced so; CPM-only ones are not held to them.
    assert.deepEqual(await found({ max_percent: 15, catalog_types: ['marketplace'] }), [
      'agr_ev_intenders',
      'agr_runners',
      'lum_coffee',
    ]);
    assert.deepEqual(await found({ min_coverage_percentage: 10 }), ['agr_runners', 'lum_coffee']);
    assert.deepEqual(
      await found({ data_providers: ['Lumen Data'], min_coverage_percentage: 10 }),
      ['lum_coffee'],
      'filters combine',
    );
  });

  it('keeps the signals available in the countries named, as countries or deliver_to.countries', async () => {
    const inGb = sorted(ids(await publicTest.signals({ ...everything, countries: ['GB'] })));
    assert.deepEqual(inGb, ['cst_public_weekend', 'lum_coffee', 'lum_pets']);
    assert.deepEqual(sorted(ids(await publicTest.signals({ ...everything, deliver_to: { countries: ['GB'] } }))), inGb);
    assert.deepEqual(sorted(ids(await publicTest.signals({ ...everything, countries: ['DE', 'CA'] }))), [
      'agr_ev_intenders',
      'agr_runners',
      'lum_coffee',
    ]);
    const error = await publicTest.fail('get_signals', { ...everything, deliver_to: { countries: ['Germany'] } });
    assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'deliver_to.countries']);
  });

  it('takes a spec up to the prose bound, advertised in its input schema, and refuses a longer one naming signal_spec', async () => {
    const { tools } = await publicTest.client.listTools();
    const input = tools.find((t) => t.name === 'get_signals')!.inputSchema as Json;
    assert.equal((input.properties as Json).signal_spec.maxLength, textBounds.prose);
    const atBound = 'marathon runners '.repeat(textBounds.prose).slice(0, textBounds.prose);
    assert.equal(ids(await publicTest.signals({ signal_spec: atBound }))[0], 'agr_runners');
    for (const signal_spec of [`${atBound}s`, 'q'.repeat(60_000)]) {
      const error = await publicTest.fail('get_signals', { signal_spec });
      assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'signal_spec']);
    }
  });

  it('takes delivery targets as the spec’s deliver_to.deployments or the schema’s destinations, with the same answer', async () => {
    const targets = [{ type: 'platform', platform: 'gamma-ctv' }];
    const spec = await publicTest.call('get_signals', { ...everything, deliver_to: { deployments: targets } });
    const schema = await publicTest.call('get_signals', { ...everything, destinations: targets });
    assert.deepEqual(schema, spec);
    assert.deepEqual(
      sorted(ids(spec.signals as Json[])),
      ['agr_ev_intenders', 'lum_coffee'],
      'only what gamma-ctv carries',
    );
  });

  it('says per target whether a signal is live there: live on the agent’s own seat where the catalog says so, else how long activating takes', async () => {
    const destinations = [
      { type: 'platform', platform: 'alpha-dsp' },
      { type: 'platform', platform: 'alpha-dsp', account: 'acme-seat' },
      { type: 'platform', platform: 'beta-dsp' },
      { type: 'agent', agent_url: agentUrl },
    ];
    const [runners] = await acme.signals({
      signal_ids: [{ source: 'catalog', data_provider_domain: 'audiencegraph.example', id: 'runners' }],
      destinations,
    });
    assert.deepEqual(runners!.deployments, [
      {
        type: 'platform',
        platform: 'alpha-dsp',
        is_live: true,
        activation_key: { type: 'segment_id', segment_id: 'alpha-1001' },
      },
      {
        type: 'platform',
        platform: 'alpha-dsp',
        account: 'acme-seat',
        is_live: false,
        estimated_activation_duration_minutes: activationMinutes,
      },
      {
        type: 'platform',
        platform: 'beta-dsp',
        is_live: false,
        estimated_activation_duration_minutes: activationMinutes,
      },
      { type: 'agent', agent_url: agentUrl, is_live: false, estimated_activation_duration_minutes: 0 },
    ]);
    // Without targets: every platform the signal is on.
    const [all] = await acme.signals({
      signal_ids: [{ source: 'catalog', data_provider_domain: 'audiencegraph.example', id: 'runners' }],
    });
    assert.deepEqual(all!.deployments, [
      {
        type: 'platform',
        platform: 'alpha-dsp',
        is_live: true,
        activation_key: { type: 'segment_id', segment_id: 'alpha-1001' },
      },
      {
        type: 'platform',
        platform: 'beta-dsp',
        is_live: false,
        estimated_activation_duration_minutes: activationMinutes,
      },
    ]);
  });

  it('omits a signal no named platform carries, and keeps only the targets that carry each signal', async () => {
    const signals = await publicTest.signals({
      ...everything,
      destinations: [
        { type: 'platform', platform: 'alpha-dsp' },
        { type: 'platform', platform: 'gamma-ctv' },
      ],
    });
    assert.deepEqual(
      sorted(ids(signals)),
      ['agr_ev_intenders', 'agr_runners', 'lum_coffee', 'lum_pets'],
      'the custom signal is on beta-dsp only',
    );
    const coffee = signals.find((s) => s.signal_agent_segment_id === 'lum_coffee')!;
    assert.deepEqual(coffee.deployments, [
      {
        type: 'platform',
        platform: 'gamma-ctv',
        is_live: false,
        estimated_activation_duration_minutes: activationMinutes,
      },
    ]);
    const nowhere = await publicTest.call('get_signals', {
      ...everything,
      destinations: [{ type: 'platform', platform: 'nowhere-dsp' }],
    });
    assert.deepEqual(nowhere.signals, []);
    assert.deepEqual(
      (nowhere.errors as Json[]).map((e) => [e.code, e.field]),
      [['DEPLOYMENT_UNAUTHORIZED', 'destinations[0].platform']],
      'a platform it does not serve is said so, not a bare empty list',
    );
    // Any signal can go to an agent.
    assert.equal(
      (await publicTest.signals({ ...everything, destinations: [{ type: 'agent', agent_url: agentUrl }] })).length,
      5,
    );
  });

  it('looks signal_ids up exactly, omitting unknown ids, and puts them first when a spec is given too', async () => {
    const pets = { source: 'catalog', data_provider_domain: 'lumendata.example', id: 'pets' };
    const weekend = { source: 'agent', agent_url: `${server.url}/signals/mcp`, id: 'public_weekend' };
    const unknown = { source: 'catalog', data_provider_domain: 'lumendata.example', id: 'no-such-signal' };
    const found = await publicTest.signals({ signal_ids: [unknown, weekend, pets] });
    assert.deepEqual(ids(found), ['cst_public_weekend', 'lum_pets'], 'in the order asked, the unknown one left out');
    assert.deepEqual(found[0]!.signal_id, weekend, 'an agent-native id answered absolute at this deployment');
    assert.deepEqual(await publicTest.signals({ signal_ids: [unknown] }), [], 'unknown ids are not an error');
    const combined = ids(await publicTest.signals({ signal_spec: 'marathon runners', signal_ids: [pets] }));
    assert.deepEqual(combined.slice(0, 2), ['lum_pets', 'agr_runners']);
    assert.equal(combined.filter((id) => id === 'lum_pets').length, 1, 'a signal the spec finds too is listed once');
  });

  it('pages with max_results and an opaque cursor, and refuses a cursor it did not give', async () => {
    const all = ids(await publicTest.signals(everything));
    assert.equal(all.length, 5);
    const walked: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const answer = await publicTest.call('get_signals', {
        ...everything,
        pagination: { max_results: 2, ...(cursor ? { cursor } : {}) },
      });
      walked.push(...ids(answer.signals as Json[]));
      assert.equal(answer.pagination.total_count, 5);
      cursor = answer.pagination.has_more ? (answer.pagination.cursor as string) : undefined;
      pages++;
    } while (cursor);
    assert.deepEqual([pages, walked], [3, all]);
    // A signal asked for by id comes first and is counted once, on whichever page the ranked rest falls.
    const fourth = ((await publicTest.signals(everything))[3] as Json).signal_id as Json;
    const byId = { ...everything, signal_ids: [fourth] };
    const first = await publicTest.call('get_signals', { ...byId, pagination: { max_results: 2 } });
    const second = await publicTest.call('get_signals', {
      ...byId,
      pagination: { max_results: 2, cursor: first.pagination.cursor },
    });
    assert.deepEqual(
      [...ids(first.signals as Json[]), ...ids(second.signals as Json[])],
      [all[3], all[0], all[1], all[2]],
    );
    assert.deepEqual([first.pagination.total_count, second.pagination.total_count], [5, 5]);
    assert.deepEqual(
      ids(await publicTest.signals({ ...everything, max_results: 3 })),
      all.slice(0, 3),
      'the deprecated max_results is the page size',
    );
    assert.deepEqual(
      ids(await publicTest.signals({ ...everything, max_results: 3, pagination: { max_results: 1 } })),
      all.slice(0, 1),
      'pagination.max_results wins',
    );
    const error = await publicTest.fail('get_signals', { ...everything, pagination: { cursor: 'not-a-cursor' } });
    assert.deepEqual([error.code, error.field], ['INVALID_REQUEST', 'pagination.cursor']);
  });

  it('shows a custom signal only to its principals and an owned one only to its owner, searched or looked up', async () => {
    const agentId = (id: string) => ({ source: 'agent', agent_url: `${server.url}/signals/mcp`, id });
    const privateIds = [agentId('acme_lookalikes'), agentId('public_weekend'), agentId('acme_crm')];
    assert.deepEqual(
      sorted(ids(await acme.signals(everything))),
      sorted([...marketplace, 'cst_acme_lookalikes', 'own_acme_crm']),
    );
    assert.deepEqual(sorted(ids(await publicTest.signals(everything))), sorted([...marketplace, 'cst_public_weekend']));
    assert.deepEqual(sorted(ids(await stranger.signals(everything))), sorted(marketplace));
    assert.deepEqual(ids(await acme.signals({ signal_ids: privateIds })), ['cst_acme_lookalikes', 'own_acme_crm']);
    assert.deepEqual(ids(await publicTest.signals({ signal_ids: privateIds })), ['cst_public_weekend']);
    assert.deepEqual(ids(await stranger.signals({ signal_ids: privateIds })), []);
    const byTheirWords = ids(await publicTest.signals({ signal_spec: 'crm customers lookalike buyers' }));
    assert.ok(
      !byTheirWords.includes('cst_acme_lookalikes') && !byTheirWords.includes('own_acme_crm'),
      'not even by their own words',
    );
    assert.deepEqual(
      ids(await acme.signals({ signal_spec: 'crm customers lookalike buyers' }))
        .slice(0, 2)
        .sort(),
      ['cst_acme_lookalikes', 'own_acme_crm'],
      'which find them for acme',
    );
  });

  it('answers over A2A with the payload as the answer’s data part', async () => {
    const a2a = await a2aClient(server.url, '/signals', { authorization: `Bearer ${publicToken}` });
    const answer = await sendSkill(a2a, 'get_signals', {
      signal_spec: 'marathon runners',
      context: { trace: 'a2a-1' },
    });
    assert.ok('parts' in answer, `expected a message, got ${JSON.stringify(answer)}`);
    const content = answer.parts[0]!.content as { $case: 'data'; value: Json };
    assert.equal(content.$case, 'data');
    assert.deepEqual(validateSchema(GET_SIGNALS_RESPONSE, content.value).errors, []);
    assert.equal(ids(content.value.signals as Json[])[0], 'agr_runners');
    assert.deepEqual(content.value.context, { trace: 'a2a-1' });
  });
});
