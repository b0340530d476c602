import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, it } from 'node:test';
import { entryOf, publishRegistryPolicy } from '../../../../src/registry/policies/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { idempotent, organizationCaller, startGovernance, type Caller } from '../harness.ts';

const policies = [
  {
    policy_id: 'no_violence',
    policy_categories: ['brand_safety'],
    enforcement: 'must',
    policy: 'Avoid content depicting violence, weapons, or physical aggression.',
  },
  {
    policy_id: 'no_sedentary_glorification',
    policy_categories: ['brand_suitability'],
    enforcement: 'should',
    policy: 'Avoid content that portrays sedentary lifestyle positively.',
  },
];

const text = (content: string, role = 'paragraph') => ({ type: 'text', role, content });
const artifact = (id: string, assets: Json[], extra: Json = {}) => ({
  property_rid: 'prop-news',
  artifact_id: id,
  assets,
  ...extra,
});

eachEngine('governance agent: content standards over MCP', (engine) => {
  const clock = new ManualClock();
  let server: TestServer;
  let pages: Server;
  let pageHost: string;
  let buyer: Caller;
  let other: Caller;
  let standardsId: string;

  before(async () => {
    // A publisher's pages, on loopback, which the agent reads through its SSRF-safe client.
    pages = createServer((req, res) => {
      if (req.url === '/fight-night')
        return res.end(
          '<html lang="en"><head><title>Fight night</title><meta name="keywords" content="boxing, weapons"></head><body><script>violence()</script><p>Results.</p></body></html>',
        );
      if (req.url === '/marathon') return res.end('<html><head><title>Marathon training plan</title></head></html>');
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => pages.listen(0, '127.0.0.1', resolve));
    pageHost = `127.0.0.1:${(pages.address() as AddressInfo).port}`;
    server = await startGovernance(engine, clock, undefined, [pageHost]);
    await server.db.transaction((tx) =>
      publishRegistryPolicy(
        tx,
        entryOf({
          policy_id: 'test:gambling',
          version: '1.0.0',
          name: 'No gambling',
          description: 'Registry wording',
          category: 'standard',
          enforcement: 'must',
          policy: 'Block gambling and betting content.',
        }),
        'test:publisher',
      ),
    );
    buyer = await organizationCaller(server);
    other = await organizationCaller(server);
    const created = await buyer.call(
      'create_content_standards',
      idempotent({
        scope: {
          languages_any: ['en'],
          countries_all: ['us', 'ca'],
          channels_any: ['display', 'olv'],
          description: 'Acme',
        },
        policies,
        registry_policy_ids: ['test:gambling'],
        calibration_exemplars: {
          pass: [artifact('approved-review', [text('A knife review for chefs.')])],
          fail: [{ type: 'url', value: `http://${pageHost}/banned` }],
        },
      }),
    );
    standardsId = created.standards_id as string;
  });
  after(async () => {
    await buyer?.client.close();
    await other?.client.close();
    await server?.close();
    await new Promise((resolve) => pages?.close(resolve));
  });

  it('keeps a standard with its bespoke and registry policies, only for its owner', async () => {
    const standard = await buyer.call('get_content_standards', { standards_id: standardsId });
    assert.equal(standard.name, 'Acme');
    assert.deepEqual(standard.countries_all, ['US', 'CA']);
    assert.deepEqual(
      (standard.policies as Json[]).map((p) => [p.policy_id, p.source]),
      [
        ['no_violence', 'inline'],
        ['no_sedentary_glorification', 'inline'],
        ['test:gambling', 'registry'],
      ],
    );
    assert.equal((standard.policies as Json[])[2]!.description, undefined, 'only policy-entry fields are kept');
    assert.equal(((standard.calibration_exemplars as Json).pass as Json[]).length, 1);
    const unknown = await buyer.fail(
      'create_content_standards',
      idempotent({ scope: { languages_any: ['en'] }, registry_policy_ids: ['test:nothing'] }),
    );
    assert.equal(unknown.code, 'REFERENCE_NOT_FOUND');
    assert.equal(
      (await other.fail('get_content_standards', { standards_id: standardsId })).code,
      'REFERENCE_NOT_FOUND',
    );
    const listed = async (args: Json) =>
      ((await buyer.call('list_content_standards', args)).standards as Json[]).map((s) => s.standards_id);
    assert.deepEqual(await listed({ countries: ['US'], channels: ['display'] }), [standardsId]);
    assert.deepEqual(await listed({ countries: ['FR'] }), []);
    assert.deepEqual(await listed({ languages: ['de'] }), []);
    assert.deepEqual((await other.call('list_content_standards', {})).standards, []);
  });

  it('calibrates: each policy’s verdict with the phrase found and where', async () => {
    const calibrate = (a: Json) =>
      buyer.call('calibrate_content', idempotent({ standards_id: standardsId, artifact: a }));
    const violent = await calibrate(
      artifact('a1', [text('Derby day', 'title'), text('Police said the weapons were seized after the fight.')]),
    );
    assert.equal(violent.verdict, 'fail');
    const byPolicy = Object.fromEntries((violent.features as Json[]).map((f) => [f.policy_id, f]));
    assert.equal(byPolicy.no_violence.status, 'failed');
    assert.equal(byPolicy.no_violence.feature_id, 'brand_safety');
    assert.match(byPolicy.no_violence.explanation as string, /"weapons" found in assets\[1\] \(paragraph\)/);
    assert.equal(byPolicy['test:gambling'].status, 'passed');

    const lazy = await calibrate(
      artifact('a2', [text('Why a sedentary lifestyle is great, and other lazy Sunday ideas.')]),
    );
    assert.equal(lazy.verdict, 'pass', 'a should policy warns, it does not fail');
    assert.deepEqual(
      (lazy.features as Json[]).map((f) => f.status),
      ['passed', 'warning', 'passed'],
    );
    const betting = await calibrate(artifact('a3', [], { metadata: { keywords: 'sports betting, odds' } }));
    assert.equal(betting.verdict, 'fail', 'declared categories count');
    assert.match(betting.explanation as string, /test:gambling/);
    const exemplar = await calibrate(artifact('approved-review', [text('A knife fight.')]));
    assert.equal(exemplar.verdict, 'pass', 'a calibration exemplar decides');
  });

  it('reads an artifact’s page when it carries no text, through the SSRF-safe client only', async () => {
    const calibrate = (url: string) =>
      buyer.call('calibrate_content', idempotent({ standards_id: standardsId, artifact: artifact(url, [], { url }) }));
    const fight = await calibrate(`http://${pageHost}/fight-night`);
    assert.equal(fight.verdict, 'fail');
    assert.match(
      fight.explanation as string,
      /"weapons" found in http:\/\/127\.0\.0\.1:\d+\/fight-night <meta keywords>/,
    );
    assert.equal((await calibrate(`http://${pageHost}/marathon`)).verdict, 'pass');
    const banned = await calibrate(`http://${pageHost}/banned`);
    assert.equal(banned.verdict, 'fail', 'a URL exemplar decides without a fetch');
    const missing = await calibrate(`http://${pageHost}/gone`);
    assert.equal(missing.verdict, 'pass');
    assert.match(missing.explanation as string, /answered HTTP 404/);
    assert.ok((missing.features as Json[]).every((f) => f.status === 'unevaluated'));
    const internal = await calibrate('http://10.0.0.1/admin');
    assert.match(internal.explanation as string, /could not be read \(forbidden_address\)/);
  });

  it('validates delivery records, judging only what is in scope and the features asked', async () => {
    const answer = await buyer.call('validate_content_delivery', {
      standards_id: standardsId,
      records: [
        {
          record_id: 'r1',
          country: 'US',
          channel: 'display',
          artifact: artifact('b1', [text('Armed violence erupts.')]),
        },
        { record_id: 'r2', country: 'US', artifact: artifact('b2', [text('Ten healthy breakfasts.')]) },
        { record_id: 'r3', country: 'FR', artifact: artifact('b3', [text('Armed violence erupts.')]) },
        {
          record_id: 'r4',
          artifact: artifact('b4', [{ type: 'text', content: 'Gewalt', language: 'de' }]),
        },
      ],
      include_passed: false,
    });
    assert.deepEqual(answer.summary, { total_records: 4, passed_records: 3, failed_records: 1 });
    assert.deepEqual(
      (answer.results as Json[]).map((r) => [r.record_id, r.verdict]),
      [['r1', 'fail']],
    );
    const all = await buyer.call('validate_content_delivery', {
      standards_id: standardsId,
      feature_ids: ['brand_suitability'],
      records: [
        { record_id: 'r3', country: 'FR', artifact: artifact('b3', [text('Armed violence erupts.')]) },
        { record_id: 'r5', artifact: artifact('b5', [text('Armed violence erupts.')]) },
      ],
    });
    const [outside, narrowed] = all.results as Json[];
    assert.match((outside!.features as Json[])[0]!.explanation as string, /outside the standard's countries/);
    assert.equal(narrowed!.verdict, 'pass', 'only the features asked are applied');
    assert.deepEqual(
      (narrowed!.features as Json[]).map((f) => f.policy_id),
      ['no_sedentary_glorification'],
    );
  });

  it('updates a standard as a new version, its policies replaced whole', async () => {
    await buyer.call(
      'update_content_standards',
      idempotent({
        standards_id: standardsId,
        policies: [{ policy_id: 'no_politics', enforcement: 'must', policy: 'Avoid controversial political content.' }],
      }),
    );
    const standard = await buyer.call('get_content_standards', { standards_id: standardsId });
    assert.deepEqual(
      (standard.policies as Json[]).map((p) => p.policy_id),
      ['no_politics', 'test:gambling'],
      'bespoke policies replaced, the registry’s kept',
    );
    const verdict = await buyer.call(
      'calibrate_content',
      idempotent({
        standards_id: standardsId,
        artifact: artifact('c1', [text('A controversial political row over the budget.')]),
      }),
    );
    assert.equal(verdict.verdict, 'fail');
    assert.equal(
      (await other.fail('update_content_standards', idempotent({ standards_id: standardsId, policies }))).code,
      'REFERENCE_NOT_FOUND',
    );
  });
});
