import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eachEngine } from '../../support/engines.ts';
import { startFleet, type Fleet } from '../../support/publisher-fleet.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { adagents, property } from './documents.ts';

const ADAGENTS = '/.well-known/adagents.json';
const BRAND = '/.well-known/brand.json';
const d = (i: number) => `cond-${i}.ap.test`;

/**
 * Re-crawls ask conditionally: the validators of the document the graph was brought in line with
 * go back to the address that gave them, and a 304 skips the download, the parse and the diff.
 */
eachEngine('crawler conditional requests', (engine) => {
  let fleet: Fleet;
  let server: TestServer;

  before(async () => {
    fleet = await startFleet(Array.from({ length: 8 }, (_, i) => `cond-${i}`));
    server = await startTestServer(engine, {
      env: { CRAWL_WORKER: 'false', CRAWL_HOST_DELAY_MS: '0' },
      deps: { fetcher: fleet.fetcher() },
    });
  });
  after(async () => {
    await server.close();
    await fleet.close();
  });

  const crawl = (domain: string) => server.app.crawler.crawl(domain);
  const propertyIds = async (domain: string) =>
    (
      await server.db.query<{ property_id: string }>(
        `select property_id from catalog_properties where publisher_domain = $1 and status = 'active' order by property_id`,
        [domain],
      )
    ).map((r) => r.property_id);
  const crawledAt = async (domain: string) =>
    (await server.db.query<{ crawled_at: Date }>('select crawled_at from publishers where domain = $1', [domain]))[0]!
      .crawled_at;
  const file = (domain: string, ids: string[]) =>
    adagents(domain, { properties: ids.map((id) => property(id, domain)) });

  describe('an ETag', () => {
    const domain = d(0);
    it('a 304 leaves the graph as it was, moving only the times, and writes no event', async () => {
      fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { etag: '"v1"' } });
      const first = await crawl(domain);
      assert.equal(first.adagents, 'found');
      assert.equal(first.unchanged, false);
      assert.ok(first.events > 0);
      const before = await crawledAt(domain);

      const again = await crawl(domain);
      assert.deepEqual([again.adagents, again.unchanged, again.events], ['found', true, 0]);
      assert.ok((await crawledAt(domain)) >= before);
      assert.deepEqual(await propertyIds(domain), ['main']);
    });

    it('the server’s 304 is taken at its word: the body is not read', async () => {
      // Same ETag, other content: only a crawler that asked conditionally keeps the old graph.
      fleet.serve(domain, ADAGENTS, { body: file(domain, ['main', 'other']), headers: { etag: '"v1"' } });
      const report = await crawl(domain);
      assert.equal(report.unchanged, true);
      assert.deepEqual(await propertyIds(domain), ['main']);
    });

    it('a new ETag is a new document: read, applied, and its ETag kept', async () => {
      fleet.serve(domain, ADAGENTS, { body: file(domain, ['main', 'other']), headers: { etag: '"v2"' } });
      const changed = await crawl(domain);
      assert.deepEqual([changed.unchanged, changed.properties], [false, 2]);
      assert.ok(changed.events > 0);
      assert.deepEqual(await propertyIds(domain), ['main', 'other']);
      assert.equal((await crawl(domain)).unchanged, true);
    });
  });

  it('Last-Modified alone is asked with If-Modified-Since', async () => {
    const domain = d(1);
    const lastModified = 'Sun, 01 Nov 2026 00:00:00 GMT';
    fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { 'last-modified': lastModified } });
    assert.equal((await crawl(domain)).unchanged, false);
    const again = await crawl(domain);
    assert.deepEqual([again.adagents, again.unchanged, again.events], ['found', true, 0]);
  });

  it('a 304 for a publisher the graph no longer holds active applies the stored document', async () => {
    const domain = d(2);
    fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { etag: '"s1"' } });
    await crawl(domain);
    // Changed by other means than this file since (a stale mark, an operator's repair).
    await server.db.query(`update publishers set status = 'stale', stale_reason = 'test' where domain = $1`, [domain]);
    const report = await crawl(domain);
    assert.deepEqual([report.adagents, report.unchanged], ['found', false]);
    assert.ok(report.events > 0, 'the publisher is reactivated, and the feed says so');
    const [row] = await server.db.query<{ status: string }>('select status from publishers where domain = $1', [
      domain,
    ]);
    assert.equal(row!.status, 'active');
    assert.equal((await crawl(domain)).unchanged, true, 'the validators are still kept');
  });

  it('a brand.json answered 304 is applied from the stored document, telling nothing twice', async () => {
    const domain = d(3);
    fleet.serve(domain, BRAND, {
      body: {
        house: { domain, name: 'Cond Holdings', architecture: 'branded_house' },
        brands: [
          {
            id: 'cond',
            names: [{ en: 'Cond' }],
            keller_type: 'master',
            url: `https://${domain}`,
            properties: [{ type: 'website', identifier: domain }],
          },
        ],
      },
      headers: { etag: '"b1"' },
    });
    const first = await crawl(domain);
    assert.equal(first.brand, 'found');
    assert.ok(first.events > 0);
    // A body the crawler would see as a change, behind the same ETag: the 304 means the stored one.
    fleet.serve(domain, BRAND, { body: { house: 'elsewhere.ap.test' }, headers: { etag: '"b1"' } });
    const again = await crawl(domain);
    assert.deepEqual([again.brand, again.events], ['found', 0]);
    const [brand] = await server.db.query<{ domain: string }>(`select domain from brands where domain = $1`, [domain]);
    assert.ok(brand, 'the brand stays');
  });

  it('no validators after a document is lost: the next crawl asks unconditionally', async () => {
    const domain = d(4);
    fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { etag: '"g1"' } });
    await crawl(domain);
    fleet.serve(domain, ADAGENTS, undefined);
    assert.equal((await crawl(domain)).adagents, 'absent');
    fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { etag: '"g1"' } });
    const back = await crawl(domain);
    assert.deepEqual([back.adagents, back.unchanged], ['found', false]);
    assert.deepEqual(await propertyIds(domain), ['main']);
  });

  it('a validator longer than any real server’s is not kept or echoed', async () => {
    const domain = d(5);
    fleet.serve(domain, ADAGENTS, { body: file(domain, ['main']), headers: { etag: `"${'x'.repeat(300)}"` } });
    await crawl(domain);
    assert.equal((await crawl(domain)).unchanged, false);
  });

  it('a 304 to a request that did not ask conditionally is not a document', async () => {
    const domain = d(6);
    fleet.serve(domain, ADAGENTS, { body: '', status: 304 });
    const report = await crawl(domain);
    assert.equal(report.adagents, 'invalid');
    assert.match(report.problem ?? '', /HTTP 304/);
  });
});
