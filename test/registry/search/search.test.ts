import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { maxLikeText } from '../../../src/db/like.ts';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const brands: Array<[domain: string, name: string]> = [
  ['acme.example', 'Zeta Corp'],
  ['shop.acme.example', 'Acme Shop'],
  ['acmecorp.example', 'Acme Corporation'],
  ['roadrunner.example', 'Acme Anvils'],
  ['percent.example', '100% Juice'],
];

const publishers: Array<{
  publisher_domain: string;
  authorized_agents: Array<{ url: string }>;
  properties: Array<{ type: string; name: string }>;
}> = [
  {
    publisher_domain: 'acme.example',
    authorized_agents: [{ url: 'https://sales.acme.example/ap' }, { url: 'https://ssp.example.com/ap' }],
    properties: [
      { type: 'website', name: 'Acme Daily' },
      { type: 'mobile_app', name: 'Acme Daily for iOS' },
    ],
  },
  { publisher_domain: 'aaa.acme.example', authorized_agents: [], properties: [{ type: 'ctv_app', name: 'acme tv' }] },
  {
    publisher_domain: 'planet.example',
    authorized_agents: [{ url: 'https://sales.planet.example/ap' }],
    properties: [{ type: 'website', name: 'Daily Planet' }],
  },
];

eachEngine('search', (engine) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(engine);
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, {
        domain: 'globex.example',
        brand_name: 'Globex',
        brand_key: 'globex',
        keller_type: 'master',
        house_domain: 'globex.example',
        manifest: {},
        aliases: ['globex.co.uk'],
      }),
    );
    for (const [domain, brand_name] of brands) {
      assert.equal((await postJson(`${server.url}/api/brands/save`, { domain, brand_name })).status, 201, domain);
    }
    for (const entry of publishers) {
      assert.equal((await postJson(`${server.url}/api/properties/save`, entry)).status, 201, entry.publisher_domain);
    }
  });
  after(() => server.close());

  const search = async (query: string) => {
    const res = await fetch(`${server.url}/api/search?${query}`);
    assert.equal(res.status, 200, query);
    return json(res);
  };
  const brandDomains = (body: Json) => body.brands.map((b: Json) => b.domain);

  describe('what it finds', () => {
    it('finds brands by name and by domain, publishers by domain and properties by name', async () => {
      const body = await search('q=acme');
      assert.equal(body.q, 'acme');
      assert.deepEqual(body.brands, [
        { domain: 'roadrunner.example', brand_name: 'Acme Anvils', source: 'community' },
        { domain: 'acmecorp.example', brand_name: 'Acme Corporation', source: 'community' },
        { domain: 'shop.acme.example', brand_name: 'Acme Shop', source: 'community' },
        { domain: 'acme.example', brand_name: 'Zeta Corp', source: 'community' },
      ]);
      assert.deepEqual(body.publishers, [
        { domain: 'aaa.acme.example', source: 'community', agent_count: 0 },
        { domain: 'acme.example', source: 'community', agent_count: 2 },
      ]);
      assert.deepEqual(body.properties, [
        { publisher_domain: 'acme.example', type: 'website', name: 'Acme Daily' },
        { publisher_domain: 'acme.example', type: 'mobile_app', name: 'Acme Daily for iOS' },
        { publisher_domain: 'aaa.acme.example', type: 'ctv_app', name: 'acme tv' },
      ]);
    });

    it('finds authoritative brands too, and is case-insensitive', async () => {
      const body = await search('q=GLOBEX');
      assert.deepEqual(body.brands, [{ domain: 'globex.example', brand_name: 'Globex', source: 'brand_json' }]);
      assert.deepEqual(body.publishers, []);
      assert.deepEqual(body.properties, []);
    });

    it('puts an exact domain match first, whatever its name and case', async () => {
      for (const q of ['acme.example', 'ACME.Example']) {
        const body = await search(`q=${q}`);
        assert.deepEqual(brandDomains(body), ['acme.example', 'shop.acme.example'], q);
        assert.deepEqual(
          body.publishers.map((p: Json) => p.domain),
          ['acme.example', 'aaa.acme.example'],
          q,
        );
      }
    });

    it('finds a property by its name alone', async () => {
      const body = await search('q=planet');
      assert.deepEqual(body.properties, [
        { publisher_domain: 'planet.example', type: 'website', name: 'Daily Planet' },
      ]);
      assert.deepEqual(body.publishers, [{ domain: 'planet.example', source: 'community', agent_count: 1 }]);
      assert.deepEqual(body.brands, []);
    });

    it('takes % and _ literally', async () => {
      const percent = await search(`q=${encodeURIComponent('0%')}`);
      assert.deepEqual(brandDomains(percent), ['percent.example']);
      for (const q of ['%%', '__', '_e']) {
        const body = await search(`q=${encodeURIComponent(q)}`);
        assert.deepEqual([body.brands, body.publishers, body.properties], [[], [], []], q);
      }
    });

    it('answers empty groups when nothing matches', async () => {
      assert.deepEqual(await search('q=zzzz'), { q: 'zzzz', brands: [], publishers: [], properties: [] });
    });

    it('answers the worst q it takes as any other: one word, many distinct words, a repeated word, each of maxLikeText characters', async () => {
      const oneWord = 'a'.repeat(maxLikeText);
      const manyWords = Array.from({ length: 100 }, (_, i) => `w${i}`)
        .join(' ')
        .slice(0, maxLikeText);
      const repeated = `${'acme '.repeat(maxLikeText)}`.slice(0, maxLikeText);
      for (const q of [oneWord, manyWords, repeated]) {
        assert.equal(q.length, maxLikeText);
        const body = await search(`q=${encodeURIComponent(q)}`);
        assert.deepEqual(body, { q: q.trim(), brands: [], publishers: [], properties: [] });
      }
    });

    it('returns at most limit results per group', async () => {
      const body = await search('q=acme&limit=2');
      assert.equal(body.brands.length, 2);
      assert.equal(body.publishers.length, 2);
      assert.equal(body.properties.length, 2);
      const one = await search('q=acme&limit=1');
      assert.deepEqual([one.brands.length, one.publishers.length, one.properties.length], [1, 1, 1]);
    });
  });

  describe('what it refuses', () => {
    it('answers 400 when q is missing, shorter than 2 characters or longer than 200', async () => {
      for (const query of ['', 'q=', 'q=a', `q=${'a'.repeat(201)}`, 'q=%20a%20', 'q=%20%20%20']) {
        const res = await fetch(`${server.url}/api/search?${query}`);
        assert.equal(res.status, 400, query);
        const body = await json(res);
        assert.equal(body.error, 'validation_failed', query);
        assert.equal(body.details[0].in, 'querystring', query);
        assert.equal(body.details[0].field, 'q', query);
      }
      assert.equal((await fetch(`${server.url}/api/search?q=${'a'.repeat(200)}`)).status, 200);
      assert.equal((await fetch(`${server.url}/api/search?q=ac`)).status, 200);
    });

    it('answers 400 for a limit outside 1..50', async () => {
      for (const limit of ['0', '51', 'x']) {
        const res = await fetch(`${server.url}/api/search?q=acme&limit=${limit}`);
        assert.equal(res.status, 400, limit);
        assert.equal((await json(res)).error, 'validation_failed', limit);
      }
    });
  });
});
