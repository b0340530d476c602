import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { renderHtml } from '../../../../src/agents/creative/render/index.ts';
import { launchBrowser } from '../../../support/browser.ts';
import { format, html5Format, manifest, solidPng } from './fixtures.ts';

const origin = 'https://preview.test';

/**
 * The page opened in Chromium at an https origin, every request answered here: the page, images
 * from `images`, anything else refused (and listed). CSP reports and dialogs are collected.
 */
async function open(browser: Browser, html: string, images: Record<string, Uint8Array> = {}) {
  const page = await browser.newPage();
  const seen = { refused: [] as string[], console: [] as string[], dialogs: [] as string[] };
  page.on('console', (m) => seen.console.push(m.text()));
  page.on('dialog', (d) => {
    seen.dialogs.push(d.message());
    void d.dismiss();
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url === `${origin}/preview`) return route.fulfill({ contentType: 'text/html; charset=utf-8', body: html });
    const image = images[url];
    if (image) return route.fulfill({ contentType: 'image/png', body: Buffer.from(image) });
    seen.refused.push(url);
    return route.abort();
  });
  await page.goto(`${origin}/preview`);
  return { page, seen };
}

const boxOf = (page: Page) => page.locator('body > .ad').boundingBox();

describe('preview pages in Chromium', () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it('show a native card at exactly its size, styled under the page’s own policy, the hostile headline as text', async () => {
    const f = format('native_in_feed');
    const m = manifest(f, {
      headline: { asset_type: 'text', content: '<img src=x onerror=alert(1)><script>alert(2)</script>' },
      body: { asset_type: 'text', content: 'Fresh bread every morning.' },
      main_image: { asset_type: 'image', url: 'https://cdn.test/hero.png' },
      sponsor_name: { asset_type: 'text', content: 'Bakery' },
      cta: { asset_type: 'text', content: 'Order now' },
      click_url: { asset_type: 'url', url: 'javascript:alert(3)' },
    });
    const { html, width, height } = renderHtml(f, m, { size: { width: 420, height: 400 } });
    const { page, seen } = await open(browser, html, { 'https://cdn.test/hero.png': solidPng(1200, 628, '#00aa00') });
    try {
      assert.deepEqual(await boxOf(page), { x: 0, y: 0, width, height });
      assert.match(
        await page.locator('.n-headline').innerText(),
        /^<img src=x\sonerror=alert\(1\)><script>/,
        'shown as text',
      );
      assert.equal(await page.locator('a').count(), 0);
      assert.equal(
        await page.locator('.n-image').evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth),
        1200,
        'the image loaded under the policy',
      );
      assert.deepEqual(seen.dialogs, []);
      assert.deepEqual(
        seen.console.filter((m) => /Content Security Policy/i.test(m)),
        [],
        'the style block matches its hash',
      );
      assert.deepEqual(seen.refused, []);
    } finally {
      await page.close();
    }
  });

  it('run an HTML5 creative’s script inside its sandbox, away from the page', async () => {
    const content = `<div id="out">waiting</div><script>
      let reach = 'blocked';
      try { reach = String(parent.document.title); } catch { reach = 'blocked'; }
      document.getElementById('out').textContent = 'ran ' + {AD_WIDTH} + ' ' + reach;
    </script>`;
    const { html } = renderHtml(html5Format, manifest(html5Format, { creative_html: { asset_type: 'html', content } }));
    const { page, seen } = await open(browser, html);
    try {
      assert.deepEqual(await boxOf(page), { x: 0, y: 0, width: 300, height: 250 });
      const frame = page.frameLocator('iframe');
      await frame.locator('#out', { hasText: 'ran' }).waitFor();
      assert.equal(await frame.locator('#out').innerText(), 'ran 300 blocked');
      assert.deepEqual(
        seen.console.filter((m) => /Content Security Policy/i.test(m)),
        [],
      );
    } finally {
      await page.close();
    }
  });
});
