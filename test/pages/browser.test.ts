import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { after, before, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServerWithBrowser } from '../support/browser.ts';
import { eachEngine } from '../support/engines.ts';
import { outputFolder, seriousViolations } from '../support/pages.ts';
import type { TestServer } from '../support/server.ts';

/**
 * The registry's pages as a person uses them, in Chromium, over the demo world: each page's
 * content, its links and forms, a screenshot of it (test-output/pages/<engine>/), and no serious
 * or critical accessibility violation.
 */
eachEngine('the registry’s pages in a real browser', (engine) => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let shots: string;

  const adminKey = randomBytes(24).toString('hex');
  before(async () => {
    ({ server, browser } = await startServerWithBrowser(engine, {
      // A platform activation ends in a second, so the playground follows one to its end.
      env: { AGENTS: 'true', AP_DEMO: 'true', AP_ADMIN_KEY: adminKey, SIGNALS_ACTIVATION_SECONDS: '1' },
    }));
    // axe-core is injected as a script the pages' own policy refuses.
    context = await browser.newContext({ bypassCSP: true });
    shots = await outputFolder('pages', engine.name);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  /** Opens a page (or follows to it), saves its screenshot and checks it for accessibility. */
  const seen = async (page: Page, name: string): Promise<string> => {
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
    assert.deepEqual(await seriousViolations(page), [], `${name}: no serious accessibility violation`);
    return page.locator('main').innerText();
  };
  const open = async (pathAndQuery: string, name: string): Promise<{ page: Page; text: string }> => {
    const page = await context.newPage();
    const res = await page.goto(`${server.url}${pathAndQuery}`);
    assert.equal(res?.status(), 200, pathAndQuery);
    return { page, text: await seen(page, name) };
  };

  it('home: what the registry holds, as the stats count it, and a search that finds a brand', async () => {
    const stats = (await (await fetch(`${server.url}/api/registry/stats`)).json()) as {
      brands: { total: number };
      publishers: { total: number };
    };
    assert.ok(stats.brands.total > 0, 'the demo’s brands are counted from the first request');
    const { page, text } = await open('/', 'home');
    assert.match(text, new RegExp(`${stats.brands.total}\\s+Brands`));
    assert.match(text, new RegExp(`${stats.publishers.total}\\s+Publishers`));
    await page.getByLabel('Find a brand, publisher or property').fill('northwind');
    await page.getByRole('button', { name: 'Search' }).last().click();
    await page.waitForURL(/\/search\?q=northwind/);
    const results = await seen(page, 'search');
    assert.match(results, /northwind-outdoor\.example/);
    await page.getByRole('link', { name: 'northwind-outdoor.example' }).click();
    await page.waitForURL(/\/brands\/northwind-outdoor\.example$/);
    assert.match(await page.locator('h1').innerText(), /Northwind Outdoor/);
  });

  it('brands: the list pages by 50, and a house shows its brands and its revision history', async () => {
    const { page, text } = await open('/brands', 'brands');
    assert.match(text, /northwind-group\.example/);
    await page.getByRole('link', { name: 'northwind-group.example', exact: true }).first().click();
    await page.waitForURL(/\/brands\/northwind-group\.example$/);
    const house = await seen(page, 'brand');
    assert.match(house, /Brands of this house/);
    assert.match(house, /northwind-kids\.example/);
    assert.match(house, /Projected from brand\.json/);
    const searched = await open('/brands?q=trailhead', 'brands-search');
    assert.match(searched.text, /1 brands matching “trailhead”/);
  });

  it('publishers: properties by type with identifiers, and the agents authorized with what for', async () => {
    const { page, text } = await open('/publishers', 'publishers');
    assert.match(text, /dailyharbor\.example/);
    await page.getByRole('link', { name: 'dailyharbor.example' }).click();
    const publisher = await seen(page, 'publisher');
    assert.match(publisher, /mobile app/);
    assert.match(publisher, /ios_bundle: com\.dailyharbor\.news/);
    assert.match(publisher, /Run-of-network news package across Harbor Media Group titles/);
    assert.match(publisher, /ad_network/);
    assert.match(publisher, /Last crawl\s+not crawled yet/);
    const properties = await open('/properties', 'properties');
    assert.match(properties.text, /The Daily Harbor app/);
  });

  it('agents: the catalog with its badges, an agent with the publishers that authorize it, its operator', async () => {
    const { text } = await open('/agents', 'agents');
    assert.match(text, /AP test deployment: sales/);
    assert.match(text, /compliance: unknown/);
    const agent = await open(
      `/agents/view?url=${encodeURIComponent('https://sales.bluefin-network.example/mcp')}`,
      'agent',
    );
    assert.match(agent.text, /dailyharbor\.example/);
    assert.match(agent.text, /Food and lifestyle network package, web and app/);
    await agent.page.getByRole('link', { name: 'bluefin-network.example' }).click();
    await agent.page.waitForURL(/\/operators\/bluefin-network\.example$/);
    const operator = await seen(agent.page, 'operator');
    assert.match(operator, /pixelplay\.example/);
  });

  it('check: explains an authorized pair and an unauthorized one, from both sides', async () => {
    const { page } = await open('/check', 'check');
    await page.getByLabel('Agent URL').fill('https://sales.bluefin-network.example/mcp');
    await page.getByLabel('Publisher domain').fill('dailyharbor.example');
    await page.getByLabel('Property id').fill('harbor_web');
    await page.getByRole('button', { name: 'Check' }).click();
    const yes = await seen(page, 'check-authorized');
    assert.match(yes, /Authorized\s/);
    assert.match(yes, /may sell The Daily Harbor of dailyharbor\.example/);
    assert.match(yes, /authorizes the agent for “Run-of-network news package/);
    await page.getByLabel('Agent URL').fill('https://sales.streamline-ctv.example/mcp');
    await page.getByLabel('Property id').fill('harbor_app');
    await page.getByRole('button', { name: 'Check' }).click();
    await page.waitForURL(/streamline/);
    const no = await seen(page, 'check-unauthorized');
    assert.match(no, /Not authorized/);
    assert.match(no, /does not authorize this agent/);
  });

  it('adagents.json: builds a file from a form and finds what is wrong in a pasted one, with pointers', async () => {
    const { page } = await open('/adagents', 'adagents');
    await page.getByLabel('Publisher domain').fill('mysite.example');
    await page.locator('#p0_name').fill('My site');
    await page.locator('#p0_value').fill('mysite.example');
    await page.locator('#a0_url').fill('https://sales.example.com/mcp');
    await page.locator('#a0_for').fill('All display');
    await page.getByRole('button', { name: 'Build adagents.json' }).click();
    await page.locator('#made-file').waitFor();
    const file = JSON.parse(await page.locator('#made-file').inputValue()) as { authorized_agents: unknown[] };
    assert.deepEqual(file.authorized_agents, [
      {
        url: 'https://sales.example.com/mcp',
        authorized_for: 'All display',
        authorization_type: 'property_ids',
        property_ids: ['property_1'],
      },
    ]);
    assert.match(await seen(page, 'adagents-built'), /Valid/);
    await page.getByLabel('Or the document, pasted').fill(JSON.stringify({ authorized_agents: [{ url: 'notaurl' }] }));
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.waitForLoadState();
    const checked = await seen(page, 'adagents-invalid');
    assert.match(checked, /Not valid/);
    assert.match(checked, /agent_url_invalid/);
    assert.match(checked, /\/authorized_agents\/0\/url/);
  });

  it('feed: shows a change made through the API while it is open, live, and pauses', async () => {
    const { page } = await open('/feed', 'feed');
    await page.getByLabel('API key').fill(adminKey);
    await page.getByLabel('Event types (globs, comma-separated)').fill('property.*');
    await page.getByRole('button', { name: 'Watch live' }).click();
    await page.getByRole('button', { name: 'Pause' }).waitFor();
    const saved = await fetch(`${server.url}/api/properties/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminKey}` },
      body: JSON.stringify({
        publisher_domain: 'watched-live.example',
        authorized_agents: [{ url: 'https://sales.example.com/mcp' }],
        properties: [
          { type: 'website', name: 'Watched live', identifiers: [{ type: 'domain', value: 'watched-live.example' }] },
        ],
      }),
    });
    assert.equal(saved.status, 201, await saved.text());
    await page.locator('#feed-live-events tr', { hasText: 'watched-live.example' }).first().waitFor();
    await seen(page, 'feed-live');
    await page.getByRole('button', { name: 'Pause' }).click();
    assert.match(await page.locator('#feed-status').innerText(), /Paused/);
  });

  it('feed without a script: one page at a time, with the cursor to read on from', async () => {
    const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
    await page.goto(`${server.url}/feed`);
    await page.getByLabel('API key').fill(adminKey);
    await page.getByRole('button', { name: 'Read' }).click();
    await page.waitForLoadState();
    const text = await page.locator('main').innerText();
    assert.match(text, /publisher\.adagents_discovered/);
    assert.match(text, /Cursor [0-9a-f-]{36}/);
  });

  /** The playground's call form for a task of one of the deployment's agents, its arguments replaced. */
  const prepared = async (agent: string, task: string, args: object): Promise<Page> => {
    const url = `/playground?agent=${encodeURIComponent(`${server.url}/${agent}/mcp`)}&task=${task}`;
    const { page } = await open(url, `playground-${task}-form`);
    await page.getByLabel('Arguments (JSON)').fill(JSON.stringify(args));
    await page.getByRole('button', { name: `Call ${task}` }).click();
    await page.locator('#result').waitFor();
    return page;
  };

  it('playground: picks an agent and a task, its arguments from the schema, and shows the answer', async () => {
    const { page } = await open('/playground', 'playground');
    await page.getByLabel('One of this deployment’s agents').selectOption({ label: 'AP test deployment: sales' });
    await page.getByRole('button', { name: 'Choose' }).click();
    await page.getByRole('radio', { name: 'get_products' }).check();
    await page.getByRole('button', { name: 'Prepare the call' }).click();
    assert.deepEqual(JSON.parse(await page.getByLabel('Arguments (JSON)').inputValue()), {});
    await page.getByLabel('Arguments (JSON)').fill(JSON.stringify({ brief: 'news pre-roll video' }));
    await page.getByRole('button', { name: 'Call get_products' }).click();
    await page.locator('#result').waitFor();
    const answer = await seen(page, 'playground-get_products');
    assert.match(answer, /"product_id": "dh_news_preroll"/);
  });

  it('playground: build_creative’s preview shows inline', async () => {
    const page = await prepared('creative-builder', 'build_creative', {
      message: 'a banner promoting our winter sale',
      brand: { domain: 'northwind.example' },
      target_format_id: { agent_url: `${server.url}/creative/mcp`, id: 'display_300x250' },
      include_preview: true,
    });
    // The built creative's picture, drawn in the preview frame.
    const picture = page.frameLocator('iframe.preview').first().locator('img').first();
    const width = await picture.evaluate((element) => {
      const img = element as unknown as { complete: boolean; naturalWidth: number; decode(): Promise<void> };
      return img.decode().then(() => img.naturalWidth);
    });
    assert.equal(width, 300);
    await page.locator('iframe.preview').screenshot({ path: path.join(shots, 'playground-preview.png') });
    assert.match(await seen(page, 'playground-build_creative'), /"creative_manifest"/);
  });

  it('playground: follows an asynchronous activate_signal until it is done', async () => {
    const page = await prepared('signals', 'activate_signal', {
      signal_agent_segment_id: 'pol_inmkt_auto_ev',
      destinations: [{ type: 'platform', platform: 'the-trade-desk', account: 'public-test-seat' }],
    });
    assert.match(await page.locator('#result h2').innerText(), /Working: submitted/);
    await page.locator('#result h2', { hasText: 'Task completed' }).waitFor();
    const done = await seen(page, 'playground-activate_signal');
    assert.match(done, /"is_live": true/);
  });

  it('dashboard: the demo’s first user signs in and finds the deployment’s agents and the API keys', async () => {
    const first = server.app.firstRun.firstUser;
    assert.ok(first, 'the demo made a first user');
    const { page } = await open('/', 'home-for-dashboard');
    await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await page.waitForURL(/\/dashboard\/login/);
    await seen(page, 'dashboard-sign-in');
    await page.getByLabel('Email').fill(first.email);
    await page.getByLabel('Password').fill(first.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/dashboard\/api-keys/);
    assert.match(await seen(page, 'dashboard-keys'), /API keys/);
    await page.goto(`${server.url}/dashboard/agents`);
    const agents = await seen(page, 'dashboard-agents');
    assert.match(agents, /AP test deployment: sales/);
    assert.match(agents, /AP test deployment: brand/);
  });
});
