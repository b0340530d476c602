import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { parseAllowList } from '../../../src/net/allow-list.ts';
import { SafeFetch } from '../../../src/net/safe-fetch.ts';
import { saveAuthoritative } from '../../../src/registry/brands/service.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { startPublishers, type Publishers } from '../../support/publishers.ts';
import { postJson } from '../../support/requests.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const shopHome = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>  Shop &amp; Co —
     Home  </title>
  <meta property="og:site_name" content="Shop &amp; Co">
  <meta name="description" content="Everything for the home.">
  <meta name="theme-color" content="#FF6600">
  <link rel="icon" href="/favicon.ico">
  <link rel="shortcut icon" href="/favicon.ico">
  <link rel="apple-touch-icon" href="https://cdn.ap.test/touch.png">
  <link rel="stylesheet" href="/site.css">
</head>
<body><h1>Welcome</h1></body>
</html>`;

/** A house portfolio whose second brand is the one that owns the domain it is served from. */
const portfolio = {
  house: { domain: 'portfolio.ap.test', name: 'Portfolio Holdings', architecture: 'house_of_brands' },
  brands: [
    {
      id: 'first',
      names: [{ en: 'First Brand' }],
      keller_type: 'independent',
      properties: [{ type: 'website', identifier: 'first.ap.test' }],
    },
    {
      id: 'prime',
      names: [{ en_US: 'Portfolio Prime' }, { fr_FR: 'Portefeuille Prime' }],
      keller_type: 'master',
      description: 'The flagship brand.',
      logos: [{ url: 'https://portfolio.ap.test/logo.svg', variant: 'primary', tags: ['primary', 'light-bg'] }],
      colors: { primary: '#123456' },
      properties: [{ type: 'website', identifier: 'portfolio.ap.test', primary: true }],
    },
  ],
};

eachEngine('brand enrichment', (engine) => {
  let publishers: Publishers;
  let server: TestServer;

  before(async () => {
    publishers = await startPublishers();
    server = await startTestServer(engine, { deps: { fetcher: publishers.fetcher } });
    publishers.serve('shop.ap.test', '/', { body: shopHome });
    publishers.serve('plain.ap.test', '/', {
      body: '<html><head><title>Plain Site</title></head><body></body></html>',
    });
    publishers.serve('portfolio.ap.test', '/.well-known/brand.json', { body: portfolio });
    publishers.serve('portfolio.ap.test', '/', { body: '<title>Not what brand.json says</title>' });
    publishers.serve('untitled.ap.test', '/', { body: '<html><body><p>No title here</p></body></html>' });
    publishers.serve('broken.ap.test', '/', { status: 500, body: '<title>Error page</title>' });
    await server.db.transaction((tx) =>
      saveAuthoritative(tx, {
        domain: 'globex.ap.test',
        brand_name: 'Globex',
        brand_key: 'globex',
        keller_type: 'master',
        house_domain: 'globex.ap.test',
        manifest: {},
        aliases: ['globex-shop.ap.test'],
      }),
    );
  });
  after(async () => {
    await server.close();
    await publishers.fetcher.close();
    await publishers.close();
  });

  const enrich = (domain: string) => fetch(`${server.url}/api/brands/enrich?domain=${encodeURIComponent(domain)}`);
  const resolve = async (domain: string) => json(await fetch(`${server.url}/api/brands/resolve?domain=${domain}`));
  const history = async (domain: string) => json(await fetch(`${server.url}/api/brands/history?domain=${domain}`));
  const seenFor = (host: string) => publishers.seen.filter((line) => line.startsWith(`${host} `));

  describe('from the home page', () => {
    it('reads name, description, icons and theme color from the site, fetched through the fetch client', async () => {
      const res = await enrich('shop.ap.test');
      assert.equal(res.status, 200);
      assert.deepEqual(await json(res), {
        domain: 'shop.ap.test',
        brand_name: 'Shop & Co',
        brand_manifest: {
          name: 'Shop & Co',
          description: 'Everything for the home.',
          logos: [
            { url: 'https://shop.ap.test/favicon.ico', tags: ['icon'] },
            { url: 'https://cdn.ap.test/touch.png', tags: ['icon'] },
          ],
          colors: [{ hex: '#ff6600', type: 'theme' }],
        },
        provider: 'site-metadata',
        source: 'enriched',
        stored: true,
        revision_number: 1,
      });
      // brand.json first (there is none), then the home page; never the icons or the stylesheet.
      assert.deepEqual(seenFor('shop.ap.test'), ['shop.ap.test /.well-known/brand.json', 'shop.ap.test /']);
      assert.deepEqual(seenFor('cdn.ap.test'), []);
    });

    it('stores it as an enriched revision by system, which resolution and the registry then answer', async () => {
      const resolved = await resolve('shop.ap.test');
      assert.equal(resolved.brand_name, 'Shop & Co');
      assert.equal(resolved.source, 'enriched');
      assert.equal(resolved.keller_type, 'master');
      assert.equal(resolved.house_domain, 'shop.ap.test');

      const revisions = await history('shop.ap.test');
      assert.equal(revisions.total, 1);
      assert.equal(revisions.revisions[0].editor_name, 'system');
      assert.equal(revisions.revisions[0].source, 'enriched');
      assert.equal(revisions.revisions[0].revision_number, 1);
      assert.match(revisions.revisions[0].edit_summary, /site-metadata/);

      const listed = await json(await fetch(`${server.url}/api/brands/registry?source=enriched`));
      const entry = listed.brands.find((b: Json) => b.domain === 'shop.ap.test');
      assert.equal(entry.brand_manifest.colors[0].hex, '#ff6600');
      assert.equal(entry.brand_manifest.logos.length, 2);
    });

    it('falls back to the title, and normalizes the domain it is given', async () => {
      const res = await enrich('HTTPS://Plain.AP.test./');
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.domain, 'plain.ap.test');
      assert.equal(body.brand_name, 'Plain Site');
      assert.deepEqual(body.brand_manifest, { name: 'Plain Site' });
      assert.equal(body.stored, true);
      assert.deepEqual(seenFor('plain.ap.test'), ['plain.ap.test /.well-known/brand.json', 'plain.ap.test /']);
    });

    it('refreshes an enriched entry with a new revision when enriched again', async () => {
      publishers.serve('plain.ap.test', '/', {
        body: '<title>Plain Site</title><meta property="og:site_name" content="Plain Renamed">',
      });
      const body = await json(await enrich('plain.ap.test'));
      assert.equal(body.brand_name, 'Plain Renamed');
      assert.equal(body.stored, true);
      assert.equal(body.revision_number, 2);
      assert.equal((await resolve('plain.ap.test')).brand_name, 'Plain Renamed');
      const revisions = await history('plain.ap.test');
      assert.deepEqual(
        revisions.revisions.map((r: Json) => `${r.revision_number} ${r.editor_name} ${r.source}`),
        ['2 system enriched', '1 system enriched'],
      );
    });
  });

  describe('from brand.json', () => {
    it('takes the brand of the house portfolio that owns the domain, and skips the home page', async () => {
      const res = await enrich('portfolio.ap.test');
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.brand_name, 'Portfolio Prime');
      assert.deepEqual(body.brand_manifest, {
        name: 'Portfolio Prime',
        description: 'The flagship brand.',
        logos: [{ url: 'https://portfolio.ap.test/logo.svg', tags: ['primary', 'light-bg'] }],
      });
      assert.equal(body.stored, true);
      assert.deepEqual(seenFor('portfolio.ap.test'), ['portfolio.ap.test /.well-known/brand.json']);
      assert.equal((await resolve('portfolio.ap.test')).source, 'enriched');
    });
  });

  describe('never over what someone said', () => {
    it('does not overwrite a community entry: stored false, the entry and its history unchanged', async () => {
      const saved = await postJson(`${server.url}/api/brands/save`, {
        domain: 'acme.ap.test',
        brand_name: 'Acme Community',
      });
      assert.equal(saved.status, 201);
      publishers.serve('acme.ap.test', '/', { body: '<title>Acme From The Site</title>' });

      const res = await enrich('acme.ap.test');
      assert.equal(res.status, 200);
      const body = await json(res);
      assert.equal(body.brand_name, 'Acme From The Site');
      assert.equal(body.stored, false);
      assert.equal('revision_number' in body, false);

      const resolved = await resolve('acme.ap.test');
      assert.equal(resolved.brand_name, 'Acme Community');
      assert.equal(resolved.source, 'community');
      const revisions = await history('acme.ap.test');
      assert.equal(revisions.total, 1);
      assert.equal(revisions.revisions[0].editor_name, 'admin/AP_ADMIN_KEY');
    });

    it('does not overwrite a community save made over an earlier enrichment', async () => {
      assert.equal(
        (await postJson(`${server.url}/api/brands/save`, { domain: 'shop.ap.test', brand_name: 'Shop Official' }))
          .status,
        200,
      );
      const body = await json(await enrich('shop.ap.test'));
      assert.equal(body.stored, false);
      const resolved = await resolve('shop.ap.test');
      assert.equal(resolved.brand_name, 'Shop Official');
      assert.equal(resolved.source, 'community');
      assert.equal((await history('shop.ap.test')).total, 2);
    });

    it('does not store over a brand managed by brand.json, nor for a domain its house declares', async () => {
      publishers.serve('globex.ap.test', '/', { body: '<title>Globex Home</title>' });
      publishers.serve('globex-shop.ap.test', '/', { body: '<title>Globex Shop</title>' });
      for (const domain of ['globex.ap.test', 'globex-shop.ap.test']) {
        const res = await enrich(domain);
        assert.equal(res.status, 200, domain);
        assert.equal((await json(res)).stored, false, domain);
        const resolved = await resolve(domain);
        assert.equal(resolved.brand_name, 'Globex', domain);
        assert.equal(resolved.source, 'brand_json', domain);
      }
      assert.equal((await history('globex.ap.test')).total, 1);
      assert.equal((await fetch(`${server.url}/api/brands/history?domain=globex-shop.ap.test`)).status, 404);
    });
  });

  describe('nothing to enrich', () => {
    it('answers 404 not_found and stores nothing when the site says nothing usable', async () => {
      for (const domain of ['empty.ap.test', 'untitled.ap.test', 'broken.ap.test']) {
        const res = await enrich(domain);
        assert.equal(res.status, 404, domain);
        const body = await json(res);
        assert.equal(body.error, 'not_found', domain);
        assert.match(body.message, new RegExp(domain.replaceAll('.', '\\.')), domain);
        assert.equal((await fetch(`${server.url}/api/brands/resolve?domain=${domain}`)).status, 404, domain);
        assert.deepEqual(seenFor(domain), [`${domain} /.well-known/brand.json`, `${domain} /`], domain);
      }
    });

    it('answers 400 for an invalid or missing domain without fetching anything', async () => {
      const before = publishers.seen.length;
      for (const domain of ['shop.ap.test:8443', 'shop.ap.test/about', '127.0.0.1']) {
        const res = await enrich(domain);
        assert.equal(res.status, 400, domain);
        assert.equal((await json(res)).error, 'invalid_domain', domain);
      }
      assert.equal((await fetch(`${server.url}/api/brands/enrich`)).status, 400);
      assert.equal(publishers.seen.length, before);
    });
  });
});

eachEngine('brand enrichment of a site that redirects its home page', (engine) => {
  const fixtures = new URL('../../support/fixtures/', import.meta.url);
  const cert = readFileSync(new URL('publishers.crt', fixtures));
  const seen: string[] = [];
  let site: Server;
  let fetcher: SafeFetch;
  let server: TestServer;

  before(async () => {
    // The apex sends visitors to a localized page on www, as many sites do; relative icon URLs
    // on that page are relative to where it was finally served from.
    site = createServer({ key: readFileSync(new URL('publishers.key', fixtures)), cert }, (req, res) => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      seen.push(`${host} ${req.url}`);
      if (host === 'moved.ap.test' && req.url === '/') {
        res.writeHead(301, { location: 'https://www-moved.ap.test/en/home' }).end();
      } else if (host === 'www-moved.ap.test' && req.url === '/en/home') {
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end(
            '<title>Moved Brand</title><link rel="icon" href="icons/brand.png"><link rel="apple-touch-icon" href="/touch.png">',
          );
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const { port } = site.address() as AddressInfo;
    fetcher = new SafeFetch({
      allow: parseAllowList(`moved.ap.test=127.0.0.1:${port},www-moved.ap.test=127.0.0.1:${port}`),
      ca: cert,
      timeoutMs: 5000,
    });
    server = await startTestServer(engine, { deps: { fetcher } });
  });
  after(async () => {
    await server.close();
    await fetcher.close();
    site.closeAllConnections();
    await new Promise<void>((resolve) => site.close(() => resolve()));
  });

  it('follows the redirect and makes icon URLs absolute against the page it landed on', async () => {
    const res = await fetch(`${server.url}/api/brands/enrich?domain=moved.ap.test`);
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.equal(body.domain, 'moved.ap.test');
    assert.equal(body.brand_name, 'Moved Brand');
    assert.deepEqual(body.brand_manifest.logos, [
      { url: 'https://www-moved.ap.test/en/icons/brand.png', tags: ['icon'] },
      { url: 'https://www-moved.ap.test/touch.png', tags: ['icon'] },
    ]);
    assert.deepEqual(seen, ['moved.ap.test /.well-known/brand.json', 'moved.ap.test /', 'www-moved.ap.test /en/home']);
  });
});
