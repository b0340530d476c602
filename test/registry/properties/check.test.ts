import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { infrastructureOf } from '../../../src/registry/properties/ad-infrastructure.ts';
import { bucket, domainsToLookUp, readDomains, type RegistryFacts } from '../../../src/registry/properties/check.ts';
import { ApError } from '../../../src/protocol/errors.ts';

const known = (domains: string[]): Map<string, RegistryFacts> =>
  new Map(domains.map((d) => [d, { source: 'adagents_json', status: 'active', agent_count: 2, verified: true }]));

describe('property list check', () => {
  describe('readDomains', () => {
    it('normalizes as every endpoint does, then drops leading www. and m. prefixes, never down to one label', () => {
      const read = readDomains([
        'News.Example',
        'www.news.example',
        'https://www.m.news.example/',
        'm.example',
        'www.example',
        'mobile.news.example',
      ]);
      assert.deepEqual(
        read.map((r) => [r.input, r.canonical, r.changes.length]),
        [
          ['News.Example', 'news.example', 1],
          ['www.news.example', 'news.example', 1],
          ['https://www.m.news.example/', 'news.example', 3],
          ['m.example', 'm.example', 0],
          ['www.example', 'www.example', 0],
          ['mobile.news.example', 'mobile.news.example', 0],
        ],
      );
      assert.deepEqual(read[1]!.changes, ['removed the www. prefix']);
    });

    it('refuses the list when any entry is not a domain, naming the first hundred bad ones', () => {
      const bad = Array.from({ length: 150 }, (_, i) => `10.0.0.${i}`);
      assert.throws(
        () => readDomains(['fine.example', ...bad]),
        (err: unknown) => {
          assert.ok(err instanceof ApError);
          assert.equal(err.code, 'invalid_domain');
          assert.equal(err.details?.length, 100);
          assert.equal(err.details?.[0]?.field, 'domains.1');
          assert.match(err.message, /^150 of the domains are not valid \(the first 100 are named\)/);
          return true;
        },
      );
    });
  });

  describe('bucket', () => {
    it('puts each domain in one bucket: later repeats and infrastructure removed, changed ones modified, known ok, the rest to assess', () => {
      const read = readDomains([
        'www.news.example',
        'news.example',
        'NEWS.example',
        'ads.g.doubleclick.net',
        'doubleclick.net',
        'sports.example',
        'new.example',
      ]);
      const check = bucket(read, known(['news.example', 'sports.example']));
      assert.deepEqual(check.summary, { total: 7, remove: 4, modify: 1, assess: 1, ok: 1 });
      assert.deepEqual(
        check.remove.map((r) => `${r.input} ${r.reason}`),
        [
          'news.example duplicate',
          'NEWS.example duplicate',
          'ads.g.doubleclick.net blocked',
          'doubleclick.net blocked',
        ],
      );
      assert.deepEqual(check.modify, [
        {
          input: 'www.news.example',
          canonical: 'news.example',
          reason: 'removed the www. prefix',
          known: true,
          source: 'adagents_json',
          status: 'active',
          agent_count: 2,
          verified: true,
        },
      ]);
      assert.deepEqual(check.ok, [
        { domain: 'sports.example', source: 'adagents_json', status: 'active', agent_count: 2, verified: true },
      ]);
      assert.deepEqual(check.assess, [{ domain: 'new.example' }]);
    });

    it('asks the registry about each canonical domain once, infrastructure left out', () => {
      assert.deepEqual(
        domainsToLookUp(readDomains(['www.news.example', 'news.example', 'cdn.cloudfront.net', 'other.example'])),
        ['news.example', 'other.example'],
      );
    });
  });

  describe('infrastructureOf', () => {
    it('knows the listed domains and their subdomains, not look-alikes or a company’s own site', () => {
      assert.equal(infrastructureOf('securepubads.g.doubleclick.net')?.domain_type, 'ad_server');
      assert.equal(infrastructureOf('adnxs.com')?.domain_type, 'ad_exchange');
      assert.equal(infrastructureOf('d1234.cloudfront.net')?.domain_type, 'cdn');
      for (const domain of ['notdoubleclick.net', 'doubleclick.net.example', 'criteo.com', 'news.example'])
        assert.equal(infrastructureOf(domain), undefined, domain);
    });
  });
});
