import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

eachEngine('brand search by name', (engine) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(engine);
    await server.db.transaction(async (tx) => {
      const house = {
        brand_key: null,
        keller_type: 'master',
        house_domain: 'acme-holdings.example',
        manifest: {},
        aliases: [],
      };
      await saveAuthoritative(tx, { ...house, domain: 'acme-holdings.example', brand_name: 'Acme Holdings' });
      await saveAuthoritative(tx, {
        ...house,
        domain: 'acme.example',
        brand_name: 'Acme',
        brand_key: 'acme',
        aliases: ['acme.co.uk'],
      });
      await saveAuthoritative(tx, {
        ...house,
        domain: 'roadrunner.example',
        brand_name: 'Road Runner Café',
        brand_key: 'rr',
        keller_type: 'sub_brand',
      });
    });
    for (const [domain, brand_name] of [
      ['acme-copy.example', 'Acme'],
      ['acmeware.example', 'Acmeware'],
      ['ultra.example', 'Ultra 100% Acme_Tools'],
      ['zurich.example', 'Zürcher Kaffee'],
    ]) {
      assert.equal((await postJson(`${server.url}/api/brands/save`, { domain, brand_name })).status, 201, domain);
    }
  });
  after(() => server.close());

  const find = async (query: string) => {
    const res = await fetch(`${server.url}/api/brands/find?${query}`);
    assert.equal(res.status, 200, query);
    return ((await json(res)).results as Json[]).map((r) => `${r.match} ${r.domain}`);
  };

  describe('GET /api/brands/find', () => {
    it('ranks exact names (the brand from brand.json first), prefixes, word matches, then the rest of a matched house', async () => {
      assert.deepEqual(await find('q=ACME'), [
        'exact acme.example',
        'exact acme-copy.example',
        'prefix acme-holdings.example',
        'prefix acmeware.example',
        'words ultra.example',
        'house roadrunner.example',
      ]);
    });

    it('finds a brand by its domain or one its house declares for it', async () => {
      assert.deepEqual(await find('q=acme.co.uk'), ['exact acme.example']);
      assert.deepEqual(await find('q=https://RoadRunner.example/'), ['exact roadrunner.example']);
    });

    it('matches every word as a word prefix, in any order, and letters beyond ASCII', async () => {
      assert.deepEqual(await find('q=runner%20caf'), ['words roadrunner.example']);
      assert.deepEqual(await find('q=kaffee%20z%C3%BCr'), ['words zurich.example']);
      assert.deepEqual(await find('q=runner%20tea'), []);
    });

    it('takes %, _ and quotes as text, not patterns or query syntax', async () => {
      assert.deepEqual(await find(`q=${encodeURIComponent('100%')}`), ['words ultra.example']);
      assert.deepEqual(await find(`q=${encodeURIComponent('ac%me')}`), [], 'as a pattern it would find every Acme');
      assert.deepEqual(await find(`q=${encodeURIComponent('ac_e')}`), []);
      assert.deepEqual(await find(`q=${encodeURIComponent("acme_tools ' & !")}`), ['words ultra.example']);
    });

    it('answers at most limit results, 10 by default, and refuses a limit outside 1..50', async () => {
      assert.equal((await find('q=acme&limit=2')).length, 2);
      for (const limit of ['0', '51', 'x'])
        assert.equal((await fetch(`${server.url}/api/brands/find?q=acme&limit=${limit}`)).status, 400, limit);
      assert.equal((await fetch(`${server.url}/api/brands/find`)).status, 400);
    });
  });
});
