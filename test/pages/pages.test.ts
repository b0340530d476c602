import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { eachEngine } from '../support/engines.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const pages = [
  '/',
  '/brands',
  '/brands/northwind.example',
  '/publishers',
  '/publishers/dailyharbor.example',
  '/properties',
  '/agents',
  `/agents/view?url=${encodeURIComponent('https://sales.bluefin-network.example/mcp')}`,
  '/operators/bluefin-network.example',
  '/check',
  '/search?q=north',
];

eachEngine('the registry’s pages over HTTP', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer(engine, { env: { AP_DEMO: 'true' } });
  });
  after(async () => server?.close());

  const get = (path: string) => fetch(`${server.url}${path}`);

  it('sends every page with a policy that runs no inline script or style, and no framing', async () => {
    for (const path of pages) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/, path);
      const policy = res.headers.get('content-security-policy') ?? '';
      assert.match(policy, /default-src 'none'/, path);
      assert.match(policy, /frame-ancestors 'none'/, path);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/, path);
      assert.equal(res.headers.get('x-frame-options'), 'DENY', path);
      const html = await res.text();
      assert.doesNotMatch(html, /<script>|<style|style="/, `${path}: nothing inline`);
    }
    const css = await get('/assets/site.css');
    assert.equal(css.status, 200);
    assert.match(css.headers.get('content-type') ?? '', /^text\/css/);
  });

  it('shows what a visitor typed as text, never as markup', async () => {
    const hostile = '<script>alert(1)</script>"><img src=x onerror=alert(2)>';
    for (const path of [`/search?q=${encodeURIComponent(hostile)}`, `/brands?q=${encodeURIComponent(hostile)}`]) {
      const html = await (await get(path)).text();
      assert.ok(!html.includes('<script>alert(1)'), path);
      assert.ok(!html.includes('<img src=x'), path);
      assert.match(html, /&#60;script&#62;alert\(1\)/, path);
    }
  });

  it('answers what it cannot show as a page with the reason: unknown, refused, too long', async () => {
    const unknown = await get('/brands/nobody-knows.example');
    assert.equal(unknown.status, 404);
    assert.match(unknown.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await unknown.text(), /role="alert"/);
    const badCursor = await get('/publishers?cursor=not-a-cursor');
    assert.equal(badCursor.status, 400);
    assert.match(await badCursor.text(), /cursor/i);
    const long = await get(`/search?q=${'x'.repeat(201)}`);
    assert.equal(long.status, 400);
    assert.match(long.headers.get('content-type') ?? '', /text\/html/);
  });
});
