import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { maxLikeText } from '../../../src/db/like.ts';
import { saveAuthoritative, saveEnriched } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

/** Community brands, chosen so name and domain searches, `%` and `_` each match something different. */
const community: Array<[domain: string, name: string]> = [
  ['alpha.example', 'Alpha Foods'],
  ['bravo.example', 'Bravo'],
  ['charlie.example', '100% Charlie'],
  ['delta.example', 'Delta_Air'],
  ['echo.example', 'Echo'],
  ['foxtrot.example', 'Foxtrot ALPHA'],
];

eachEngine('brand registry listing', (engine) => {
  let server: TestServer;

  before(async () => {
    server = await startTestServer(engine);
    await server.db.transaction(async (tx) => {
      await saveAuthoritative(tx, {
        domain: 'globex.example',
        brand_name: 'Globex',
        brand_key: 'globex',
        keller_type: 'master',
        house_domain: 'globex.example',
        manifest: {},
        aliases: ['globex.co.uk'],
      });
      await saveAuthoritative(tx, {
        domain: 'globexsport.example',
        brand_name: 'Globex Sport',
        brand_key: 'globex_sport',
        keller_type: 'sub_brand',
        house_domain: 'globex.example',
        manifest: {},
        aliases: ['globexsport.de'],
      });
    });
    for (const [domain, brand_name] of community) {
      const res = await postJson(`${server.url}/api/brands/save`, {
        domain,
        brand_name,
        brand_manifest: { name: brand_name },
      });
      assert.equal(res.status, 201, domain);
    }
    await saveEnriched(server.db, {
      domain: 'hotel.example',
      brand_name: 'Hotel',
      manifest: { name: 'Hotel' },
      provider: 'test',
    });
  });
  after(() => server.close());

  const list = async (query: string) => {
    const res = await fetch(`${server.url}/api/brands/registry${query ? `?${query}` : ''}`);
    assert.equal(res.status, 200, query);
    return json(res);
  };
  const domains = (page: Json): string[] => page.brands.map((b: Json) => b.domain);
  const everything = [...community.map(([d]) => d), 'globex.example', 'globexsport.example', 'hotel.example'].sort();

  describe('listing', () => {
    it('lists every brand ordered by domain, with totals and counts by source', async () => {
      const page = await list('');
      assert.deepEqual(domains(page), everything);
      assert.equal(page.total, 9);
      assert.deepEqual(page.counts, { brand_json: 2, enriched: 1, community: 6 });
      assert.equal(page.has_more, false);
      assert.equal(page.cursor, null);
    });

    it('gives each brand its registry entry', async () => {
      const page = await list('');
      const sport = page.brands.find((b: Json) => b.domain === 'globexsport.example');
      assert.deepEqual(Object.keys(sport).sort(), [
        'brand_manifest',
        'brand_name',
        'domain',
        'has_manifest',
        'house_domain',
        'id',
        'keller_type',
        'revision_number',
        'source',
        'updated_at',
        'verified',
      ]);
      assert.deepEqual(
        [sport.has_manifest, sport.verified],
        [false, true],
        'no identity data; from its house’s brand.json',
      );
      assert.equal(sport.brand_name, 'Globex Sport');
      assert.equal(sport.keller_type, 'sub_brand');
      assert.equal(sport.house_domain, 'globex.example');
      assert.equal(sport.source, 'brand_json');
      assert.equal(sport.revision_number, 1);
      assert.match(sport.updated_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

      const alpha = page.brands.find((b: Json) => b.domain === 'alpha.example');
      const resolved = await json(await fetch(`${server.url}/api/brands/resolve?domain=alpha.example`));
      assert.equal(alpha.id, resolved.canonical_id);
      assert.deepEqual(alpha.brand_manifest, { name: 'Alpha Foods' });
      assert.equal(alpha.keller_type, 'master');
      assert.equal(alpha.house_domain, 'alpha.example');
      assert.equal(alpha.source, 'community');
      assert.deepEqual([alpha.has_manifest, alpha.verified], [true, false]);

      // Domains a house declares resolve to its brands but are not brands of their own.
      assert.ok(!domains(page).includes('globex.co.uk'));
    });
  });

  describe('search with q', () => {
    it('matches a case-insensitive substring of the domain or the name, and counts only matches', async () => {
      const byDomain = await list('q=ECHO.EX');
      assert.deepEqual(domains(byDomain), ['echo.example']);
      assert.equal(byDomain.total, 1);

      const byName = await list('q=alpha');
      assert.deepEqual(domains(byName), ['alpha.example', 'foxtrot.example']);
      assert.equal(byName.total, 2);
      assert.deepEqual(byName.counts, { brand_json: 0, enriched: 0, community: 2 });

      const globex = await list('q=Globex');
      assert.deepEqual(domains(globex), ['globex.example', 'globexsport.example']);
      assert.deepEqual(globex.counts, { brand_json: 2, enriched: 0, community: 0 });

      const none = await list('q=nothing-like-this');
      assert.deepEqual(none.brands, []);
      assert.equal(none.total, 0);
      assert.deepEqual(none.counts, { brand_json: 0, enriched: 0, community: 0 });
    });

    it('takes % and _ literally, not as wildcards', async () => {
      assert.deepEqual(domains(await list(`q=${encodeURIComponent('%')}`)), ['charlie.example']);
      assert.deepEqual(domains(await list(`q=${encodeURIComponent('100%')}`)), ['charlie.example']);
      assert.deepEqual(domains(await list('q=_')), ['delta.example']);
      assert.deepEqual(domains(await list('q=a_a')), ['delta.example']);
      assert.deepEqual(domains(await list(`q=${encodeURIComponent('a%a')}`)), []);
      assert.deepEqual(domains(await list(`q=${encodeURIComponent('\\')}`)), []);
    });
  });

  describe('q bound', () => {
    it('answers the worst q it takes as any other (one word, many words, a repeated word of maxLikeText characters), and refuses a longer one', async () => {
      const manyWords = Array.from({ length: 100 }, (_, i) => `w${i}`)
        .join(' ')
        .slice(0, maxLikeText);
      for (const q of ['a'.repeat(maxLikeText), manyWords, 'alpha '.repeat(maxLikeText).slice(0, maxLikeText)]) {
        const page = await list(`q=${encodeURIComponent(q)}`);
        assert.deepEqual([page.brands, page.total], [[], 0]);
      }
      const res = await fetch(`${server.url}/api/brands/registry?q=${'a'.repeat(maxLikeText + 1)}`);
      assert.equal(res.status, 400);
      const body = await json(res);
      assert.deepEqual([body.error, body.details[0].field], ['validation_failed', 'q']);
    });
  });

  describe('source filter', () => {
    it('lists only brands of that source; counts still cover every source', async () => {
      const authoritative = await list('source=brand_json');
      assert.deepEqual(domains(authoritative), ['globex.example', 'globexsport.example']);
      assert.equal(authoritative.total, 2);
      assert.deepEqual(authoritative.counts, { brand_json: 2, enriched: 1, community: 6 });

      const enriched = await list('source=enriched');
      assert.deepEqual(domains(enriched), ['hotel.example']);
      assert.equal(enriched.brands[0].source, 'enriched');
      assert.equal(enriched.total, 1);

      const both = await list('source=community&q=alpha');
      assert.deepEqual(domains(both), ['alpha.example', 'foxtrot.example']);
      assert.equal((await list('source=brand_json&q=alpha')).total, 0);
    });

    it('answers 400 for an unknown source', async () => {
      const res = await fetch(`${server.url}/api/brands/registry?source=crawled`);
      assert.equal(res.status, 400);
      assert.equal((await json(res)).error, 'validation_failed');
    });
  });

  describe('the protocol’s registry client’s parameters and stats', () => {
    it('answers stats over the brands matching the search, whatever the source filter', async () => {
      const stats = {
        total: 9,
        hosted: 0,
        brand_json: 2,
        enriched: 1,
        community: 6,
        houses: 8,
        sub_brands: 1,
        with_manifest: 7,
      };
      assert.deepEqual((await list('')).stats, stats);
      assert.deepEqual((await list('source=community')).stats, stats);
      assert.deepEqual((await list('q=globex')).stats, {
        total: 2,
        hosted: 0,
        brand_json: 2,
        enriched: 0,
        community: 0,
        houses: 1,
        sub_brands: 1,
        with_manifest: 0,
      });
    });

    it('takes search as q, and refuses the two when they differ', async () => {
      assert.deepEqual(await list('search=alpha'), await list('q=alpha'));
      assert.deepEqual(domains(await list('search=alpha&q=alpha')), ['alpha.example', 'foxtrot.example']);
      const res = await fetch(`${server.url}/api/brands/registry?search=alpha&q=bravo`);
      assert.equal(res.status, 400);
      const body = await json(res);
      assert.deepEqual([body.error, body.details[0].field], ['validation_failed', 'search']);
    });

    it('pages by offset, bounded, and hands over a cursor that goes on from there', async () => {
      const byOffset = await list('limit=3&offset=3');
      assert.deepEqual(domains(byOffset), everything.slice(3, 6));
      assert.equal(byOffset.total, 9);
      assert.deepEqual(
        domains(await list(`limit=3&cursor=${encodeURIComponent(byOffset.cursor)}`)),
        everything.slice(6, 9),
      );
      assert.deepEqual(domains(await list('limit=3&offset=6')), everything.slice(6, 9));
      assert.deepEqual((await list('offset=9')).brands, []);
      assert.deepEqual(
        domains(await list('source=community&search=a&offset=1&limit=2')),
        domains(await list('source=community&q=a')).slice(1, 3),
      );
      assert.deepEqual((await list('offset=10000')).brands, []);
      for (const query of ['offset=10001', 'offset=-1', `offset=3&cursor=${encodeURIComponent(byOffset.cursor)}`]) {
        const res = await fetch(`${server.url}/api/brands/registry?${query}`);
        assert.equal(res.status, 400, query);
        const body = await json(res);
        assert.deepEqual([body.error, body.details[0].field], ['validation_failed', 'offset'], query);
      }
    });

    it('takes source=hosted, which no brand here has', async () => {
      const hosted = await list('source=hosted');
      assert.deepEqual([hosted.brands, hosted.total, hosted.has_more], [[], 0, false]);
    });
  });

  describe('pagination', () => {
    async function walk(query: string, between?: (pageNumber: number) => Promise<void>) {
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let pageNumber = 1; pageNumber <= 50; pageNumber++) {
        const page = await list(`${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.ok(page.brands.length <= 2, `page ${pageNumber} has ${page.brands.length}`);
        seen.push(...domains(page));
        assert.equal(page.has_more, page.cursor !== null);
        if (!page.has_more) return seen;
        cursor = page.cursor as string;
        await between?.(pageNumber);
      }
      throw new Error('pagination did not end');
    }

    it('walks every page with limit=2: every brand once, in order, no gap', async () => {
      const seen = await walk('limit=2');
      assert.deepEqual(seen, everything);
      const first = await list('limit=2');
      assert.deepEqual(domains(first), everything.slice(0, 2));
      assert.equal(first.total, 9, 'total counts every match, not the page');
    });

    it('pages within a filter', async () => {
      assert.deepEqual(
        await walk('limit=2&source=community'),
        community.map(([d]) => d),
      );
      assert.deepEqual(await walk('limit=2&q=globex'), ['globex.example', 'globexsport.example']);
    });

    it('answers 400 invalid_cursor for a cursor it did not issue', async () => {
      for (const cursor of [
        'not a cursor!',
        Buffer.from('{"id":"x"}').toString('base64url'),
        Buffer.from('plain text').toString('base64url'),
        Buffer.from('{"domain":7}').toString('base64url'),
      ]) {
        const res = await fetch(`${server.url}/api/brands/registry?limit=2&cursor=${encodeURIComponent(cursor)}`);
        assert.equal(res.status, 400, cursor);
        const body = await json(res);
        assert.equal(body.error, 'invalid_cursor', cursor);
        assert.match(body.message, /cursor/);
      }
    });

    it('answers 400 for a limit outside 1..200', async () => {
      for (const limit of ['0', '201', '-1', 'ten', '2.5']) {
        const res = await fetch(`${server.url}/api/brands/registry?limit=${limit}`);
        assert.equal(res.status, 400, limit);
        assert.equal((await json(res)).error, 'validation_failed', limit);
      }
      assert.equal((await list('limit=1')).brands.length, 1);
      assert.equal((await list('limit=200')).brands.length, 9);
    });

    it('stays stable when brands are saved between page requests: no duplicate, no gap', async () => {
      const seen = await walk('limit=2', async (pageNumber) => {
        if (pageNumber !== 2) return;
        // One before the position reached (not seen on later pages), one after it (seen).
        for (const [domain, brand_name] of [
          ['aardvark.example', 'Aardvark'],
          ['zulu.example', 'Zulu'],
        ]) {
          assert.equal((await postJson(`${server.url}/api/brands/save`, { domain, brand_name })).status, 201);
        }
        // And a brand already passed changes; it must not come round again.
        assert.equal(
          (await postJson(`${server.url}/api/brands/save`, { domain: 'alpha.example', brand_name: 'Alpha Foods Ltd' }))
            .status,
          200,
        );
      });
      assert.deepEqual(seen, [...everything, 'zulu.example']);
      assert.equal(new Set(seen).size, seen.length);
      assert.equal((await list('')).total, 11);
    });
  });
});
