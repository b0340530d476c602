import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { engines } from '../support/engines.ts';
import { startServerWithBrowser } from '../support/browser.ts';
import type { TestServer } from '../support/server.ts';

// The page shows the API, not stored data, so one engine is enough here.
describe('[pglite] API reference page', () => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    ({ server, browser } = await startServerWithBrowser(engines[0]!));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders every operation of the OpenAPI document, readable in a real browser', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(request.url()));
    await page.goto(`${server.url}/docs`);
    await page.locator('.opblock').first().waitFor({ timeout: 15_000 });
    assert.match(await page.locator('.info .title').innerText(), /ap registry API/);
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi/registry.yaml']) {
      assert.ok(
        paths.some((p) => p.replace(/\u200b/g, '') === path),
        `${path} is listed (found ${paths.join(', ')})`,
      );
    }
    // Expanding an operation shows its responses, including the shared error body.
    await page.locator('.opblock-summary', { hasText: '/readyz' }).first().click();
    await page.locator('.responses-table').first().waitFor();
    assert.match(await page.locator('.opblock-body').first().innerText(), /503/);
    assert.deepEqual(failed, [], 'every asset loads from this server');
  });
});
