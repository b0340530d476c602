import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { startServerWithBrowser } from '../support/browser.ts';
import { eachEngine } from '../support/engines.ts';
import { bearer, seedOrganization, seedUser, proveOwnership } from '../support/identity.ts';
import type { TestServer } from '../support/server.ts';

eachEngine('dashboard in a real browser', (engine) => {
  let server: TestServer;
  let browser: Browser;
  before(async () => {
    ({ server, browser } = await startServerWithBrowser(engine));
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  // What a developer does with the key afterwards, outside any browser: curl with a bearer header.
  const saveWith = (key: string) =>
    fetch(`${server.url}/api/brands/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...bearer(key) },
      body: JSON.stringify({ domain: 'dash.example', brand_name: 'Dash' }),
    });

  it('signs in, creates a key shown once, uses it from outside, revokes it, and it stops working', async () => {
    const org = await seedOrganization(server.db);
    const alice = await seedUser(server.db, { organization: org.slug });
    await proveOwnership(server.db, org.slug, 'dash.example');
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(`${server.url}/dashboard/api-keys`);
    assert.equal(new URL(page.url()).pathname, '/dashboard/login');
    await page.getByLabel('Email').fill(alice.email);
    await page.getByLabel('Password').fill(alice.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/dashboard/api-keys`);
    assert.match(await page.locator('main').innerText(), /no API keys yet/);

    await page.getByLabel('Name').fill('Production server');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('#new-key').waitFor();
    assert.match(await page.locator('main').innerText(), /Copy it now: it will not be shown again/);
    const key = (await page.locator('#new-key').innerText()).trim();
    const prefix = /^ap_([0-9a-f]{12})_[A-Za-z0-9_-]{43}$/.exec(key)?.[1];
    assert.ok(prefix, `a well-formed key: ${key}`);

    await page.getByRole('link', { name: 'Back to the API keys' }).click();
    await page.reload();
    const list = await page.content();
    assert.ok(!list.includes(key), 'the key is not shown again');
    const row = page.locator('tr', { hasText: 'Production server' });
    assert.match(await row.innerText(), new RegExp(`ap_${prefix}_…`));

    assert.equal((await saveWith(key)).status, 201);

    await page.reload();
    assert.doesNotMatch(await row.locator('td').nth(4).innerText(), /never/, 'last use is shown');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(`${server.url}/dashboard/api-keys?org=${org.slug}`);
    assert.match(await page.locator('tr', { hasText: 'Production server' }).innerText(), /revoked/);
    assert.equal(
      await page.locator('tr', { hasText: 'Production server' }).getByRole('button', { name: 'Revoke' }).count(),
      0,
    );

    const refused = await saveWith(key);
    assert.equal(refused.status, 401);
    await context.close();
  });

  it('enrolls an agent, is told how to prove an unproven host, changes its visibility and removes it once confirmed', async () => {
    const org = await seedOrganization(server.db);
    const bob = await seedUser(server.db, { organization: org.slug });
    await proveOwnership(server.db, org.slug, 'agents-dash.example');
    const context = await browser.newContext();
    const page = await context.newPage();
    const main = page.locator('main');

    await page.goto(`${server.url}/dashboard/agents`);
    await page.getByLabel('Email').fill(bob.email);
    await page.getByLabel('Password').fill(bob.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.url}/dashboard/agents`);
    assert.match(await main.innerText(), /enrolled no agents yet/);

    const enroll = async (url: string) => {
      await page.getByLabel('Agent URL').fill(url);
      await page.getByLabel('Type').selectOption('signals');
      await page.getByLabel('Name').fill('Audience signals');
      await page.getByLabel('Visibility').selectOption('public');
      await page.getByRole('button', { name: 'Enroll agent' }).click();
    };
    await enroll('https://signals.elsewhere.example/mcp');
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /has not proven control of signals\.elsewhere\.example/);
    assert.match(await page.getByRole('note').innerText(), /_ap-owner\.signals\.elsewhere\.example/);
    assert.equal(await page.getByLabel('Name').inputValue(), 'Audience signals', 'what was typed is kept');

    await enroll('https://signals.agents-dash.example/mcp');
    await page.waitForURL(`${server.url}/dashboard/agents?org=${org.slug}`);
    const row = page.locator('tr', { hasText: 'Audience signals' });
    assert.match(
      await row.innerText(),
      /signals\.agents-dash\.example\/mcp\s+signals\s+public\s+.*UTC\s+not probed yet/,
    );

    await row.getByRole('link', { name: 'Manage Audience signals' }).click();
    await page.getByLabel('Visibility').selectOption('members_only');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.waitForURL(`${server.url}/dashboard/agents?org=${org.slug}`);
    assert.match(await page.locator('tr', { hasText: 'Audience signals' }).innerText(), /members_only/);

    await page
      .locator('tr', { hasText: 'Audience signals' })
      .getByRole('link', { name: 'Manage Audience signals' })
      .click();
    const manageUrl = page.url();
    await page.getByRole('button', { name: 'Remove agent' }).click();
    // The browser holds an unticked confirmation back; nothing is sent.
    assert.equal(page.url(), manageUrl);
    assert.equal(
      await page.locator('input[name="confirm"]:invalid').count(),
      1,
      'the unticked box is what holds it back',
    );
    await page.getByLabel(/Yes, remove Audience signals/).check();
    await page.getByRole('button', { name: 'Remove agent' }).click();
    await page.waitForURL(`${server.url}/dashboard/agents?org=${org.slug}`);
    assert.match(await main.innerText(), /enrolled no agents yet/);
    await context.close();
  });
});
