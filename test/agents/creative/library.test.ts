import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { validateSchema } from '../../../src/protocol/schemas.ts';
import { mcpClient } from '../../support/agents.ts';
import { ManualClock } from '../../support/clock.ts';
import { eachEngine } from '../../support/engines.ts';
import { json, type Json } from '../../support/http.ts';
import { createApiKeyFor, seedOrganization } from '../../support/identity.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';

const published: Record<string, string> = {
  sync_creatives: '/schemas/3.0.6/creative/sync-creatives-response.json',
  list_creatives: '/schemas/3.0.6/creative/list-creatives-response.json',
};

/** A caller of the creative agent over MCP with an organization's API key. */
interface Caller {
  client: Client;
  token: string;
  /** A call that must succeed; its answer is checked against the published response schema. */
  call(name: string, args: Record<string, unknown>): Promise<Json>;
  /** The error object of a call that must fail. */
  fail(name: string, args: Record<string, unknown>): Promise<Json>;
}

/**
 * The creative agent's library through the official MCP client and plain HTTP: creatives checked
 * against the agent's own formats, kept per organization and account reference, archived by
 * delete_missing, listed with filters, sorts and pages; idempotent syncs.
 */
eachEngine('creative agent: creative library', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const callers: Caller[] = [];
  let acme: Caller;
  let acmeAgain: Caller;
  let rival: Caller;

  const format = (id: string, agentUrl = `${server.url}/creative/mcp`) => ({ agent_url: agentUrl, id });
  const banner = (creativeId: string, more: Json = {}): Json => ({
    creative_id: creativeId,
    name: `Banner ${creativeId}`,
    format_id: format('display_300x250'),
    assets: {
      banner_image: { asset_type: 'image', url: `https://cdn.example.com/${creativeId}.png`, width: 300, height: 250 },
      click_url: { asset_type: 'url', url: 'https://brand.example/landing' },
    },
    ...more,
  });
  const video = (creativeId: string): Json => ({
    creative_id: creativeId,
    name: `Video ${creativeId}`,
    format_id: format('video_15s'),
    assets: {
      video_file: {
        asset_type: 'video',
        url: `https://cdn.example.com/${creativeId}.mp4`,
        width: 1920,
        height: 1080,
        duration_ms: 15000,
      },
    },
  });
  /** A fresh library (account reference) per test, so none sees another's creatives. */
  const newAccount = () => ({ account_id: `acct-${randomUUID()}` });
  const sync = (c: Caller, account: Json, creatives: Json[], more: Json = {}) =>
    c.call('sync_creatives', { idempotency_key: randomUUID(), account, creatives, ...more });
  const ids = async (c: Caller, args: Json) =>
    ((await c.call('list_creatives', args)).creatives as Json[]).map((x) => x.creative_id as string);
  const lines = (answer: Json) => (answer.creatives as Json[]).map((c) => [c.creative_id, c.action, c.status]);
  const post = (token: string, body: unknown) =>
    fetch(`${server.url}/creative/tasks/sync_creatives`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  async function caller(token: string): Promise<Caller> {
    const client = await mcpClient(server.url, '/creative', { authorization: `Bearer ${token}` });
    const raw = async (name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: args })) as Json;
      return { isError: result.isError === true, payload: JSON.parse(result.content[0].text as string) as Json };
    };
    const made: Caller = {
      client,
      token,
      async call(name, args) {
        const { isError, payload } = await raw(name, args);
        assert.equal(isError, false, `${name} failed: ${JSON.stringify(payload)}`);
        if (published[name])
          assert.deepEqual(validateSchema(published[name], payload).errors, [], `${name} answers its published schema`);
        return payload;
      },
      async fail(name, args) {
        const { isError, payload } = await raw(name, args);
        assert.equal(isError, true, `${name} should have failed: ${JSON.stringify(payload)}`);
        assert.deepEqual(validateSchema('/schemas/3.0.6/core/error.json', payload).errors, []);
        return payload;
      },
    };
    callers.push(made);
    return made;
  }

  before(async () => {
    server = await startTestServer(engine, { env: { AGENTS: 'true' }, deps: { clock } });
    const [org, other] = [await seedOrganization(server.db), await seedOrganization(server.db)];
    acme = await caller(await createApiKeyFor(server.db, org.slug));
    acmeAgain = await caller(await createApiKeyFor(server.db, org.slug));
    rival = await caller(await createApiKeyFor(server.db, other.slug));
  });
  after(async () => {
    for (const c of callers) await c.client.close();
    await server?.close();
  });

  it('says it has a creative library and offers sync_creatives and list_creatives', async () => {
    const capabilities = await acme.call('get_ap_capabilities', {});
    assert.equal((capabilities.creative as Json).has_creative_library, true);
    const tools = (await acme.client.listTools()).tools.map((t) => t.name);
    assert.ok(tools.includes('sync_creatives') && tools.includes('list_creatives'), tools.join());
  });

  it('stores valid creatives approved, and tells created, unchanged and updated apart', async () => {
    const account = newAccount();
    const created = await sync(acme, account, [banner('hero'), banner('side', { tags: ['q1'] })]);
    assert.deepEqual(lines(created), [
      ['hero', 'created', 'approved'],
      ['side', 'created', 'approved'],
    ]);
    assert.equal(created.sandbox, false);

    clock.advance(60_000);
    const again = await sync(acme, account, [
      banner('hero'),
      banner('side', { name: 'Side banner v2', tags: ['q1', 'q2'] }),
    ]);
    assert.deepEqual(
      (again.creatives as Json[]).map((c) => [c.creative_id, c.action, c.changes]),
      [
        ['hero', 'unchanged', undefined],
        ['side', 'updated', ['name', 'tags']],
      ],
    );
    const [side] = (await acme.call('list_creatives', { account, filters: { creative_ids: ['side'] } }))
      .creatives as Json[];
    assert.deepEqual([side!.name, side!.tags, side!.status], ['Side banner v2', ['q1', 'q2'], 'approved']);
    assert.deepEqual(
      [side!.created_date, side!.updated_date],
      [new Date(clock.now().getTime() - 60_000).toISOString(), clock.now().toISOString()],
    );
    assert.deepEqual(side!.assets.banner_image, banner('side').assets.banner_image);
    assert.deepEqual(
      side!.assignments,
      { assignment_count: 0, assigned_packages: [] },
      'this agent assigns nothing to packages',
    );
  });

  it('takes a format named by any spelling of its URL, and lists it by any spelling', async () => {
    const account = newAccount();
    const answer = await sync(acme, account, [
      { ...banner('base'), format_id: format('display_300x250', `${server.url}/creative/`) },
    ]);
    assert.deepEqual(lines(answer), [['base', 'created', 'approved']]);
    assert.deepEqual(await ids(acme, { account, filters: { format_ids: [format('display_300x250')] } }), ['base']);
    assert.deepEqual(
      await ids(acme, { account, filters: { format_ids: [format('video_15s', `${server.url}/creative/a2a`)] } }),
      [],
    );
  });

  it('refuses the whole sync in strict mode (the default) over one invalid creative, storing nothing', async () => {
    const account = newAccount();
    const missing = banner('bare');
    delete missing.assets.banner_image;
    const error = await acme.fail('sync_creatives', {
      idempotency_key: randomUUID(),
      account,
      creatives: [banner('good'), missing],
    });
    assert.deepEqual([error.code, error.field], ['VALIDATION_ERROR', 'creatives[1].assets.banner_image']);
    assert.deepEqual(
      (error.details.creatives as Json[]).map((c) => [c.creative_id, c.action]),
      [['bare', 'failed']],
    );
    assert.deepEqual(await ids(acme, { account }), []);

    const res = await post(acme.token, {
      idempotency_key: randomUUID(),
      account,
      creatives: [banner('good'), missing],
    });
    assert.equal(res.status, 422);
    const body = await json(res);
    assert.deepEqual(Object.keys(body), ['status', 'error']);
    assert.equal(body.error.code, 'VALIDATION_ERROR');
    assert.deepEqual(await ids(acme, { account }), []);
  });

  it('answers each invalid creative in its own line in lenient mode, storing the valid ones', async () => {
    const account = newAccount();
    const alien = { ...banner('alien'), format_id: format('hologram_3d') };
    const foreign = { ...banner('foreign'), format_id: format('display_300x250', 'https://other-agent.example/mcp') };
    const missing = banner('bare');
    delete missing.assets.banner_image;
    const wide = banner('wide');
    wide.assets.banner_image.width = 320;
    const answer = await sync(acme, account, [banner('good'), alien, foreign, missing, wide, video('clip')], {
      validation_mode: 'lenient',
    });
    assert.deepEqual(
      (answer.creatives as Json[]).map((c) => [
        c.creative_id,
        c.action,
        c.status,
        c.errors?.map((e: Json) => [e.code, e.field]),
      ]),
      [
        ['good', 'created', 'approved', undefined],
        ['alien', 'failed', undefined, [['FORMAT_NOT_SUPPORTED', 'creatives[1].format_id']]],
        ['foreign', 'failed', undefined, [['FORMAT_NOT_SUPPORTED', 'creatives[2].format_id']]],
        ['bare', 'failed', undefined, [['VALIDATION_ERROR', 'creatives[3].assets.banner_image']]],
        ['wide', 'failed', undefined, [['VALIDATION_ERROR', 'creatives[4].assets.banner_image.width']]],
        ['clip', 'created', 'approved', undefined],
      ],
    );
    assert.deepEqual(await ids(acme, { account }), ['clip', 'good']);

    const res = await post(acme.token, {
      idempotency_key: randomUUID(),
      account,
      creatives: [banner('later'), alien],
      validation_mode: 'lenient',
    });
    assert.equal(res.status, 200);
    const body = await json(res);
    assert.deepEqual(validateSchema(published.sync_creatives!, body).errors, []);
    assert.deepEqual(lines(body), [
      ['later', 'created', 'approved'],
      ['alien', 'failed', undefined],
    ]);
  });

  it('previews a sync with dry_run, writing nothing', async () => {
    const account = newAccount();
    await sync(acme, account, [banner('kept')]);
    const preview = await sync(acme, account, [banner('kept', { name: 'Renamed' }), banner('new')], { dry_run: true });
    assert.equal(preview.dry_run, true);
    assert.deepEqual(lines(preview), [
      ['kept', 'updated', 'approved'],
      ['new', 'created', 'approved'],
    ]);
    const [kept] = (await acme.call('list_creatives', { account })).creatives as Json[];
    assert.deepEqual([kept!.creative_id, kept!.name], ['kept', 'Banner kept']);
    assert.equal((await acme.call('list_creatives', { account })).creatives.length, 1);
  });

  it('archives the creatives a delete_missing sync leaves out, lists them only when asked, and brings one back when sent again', async () => {
    const account = newAccount();
    await sync(acme, account, [banner('a'), banner('b'), banner('c')]);
    const previewed = await sync(acme, account, [banner('a')], { delete_missing: true, dry_run: true });
    assert.deepEqual(lines(previewed), [
      ['a', 'unchanged', 'approved'],
      ['b', 'updated', 'archived'],
      ['c', 'updated', 'archived'],
    ]);
    assert.deepEqual(
      await ids(acme, { account, sort: { field: 'name', direction: 'asc' } }),
      ['a', 'b', 'c'],
      'the dry run archived nothing',
    );

    const answer = await sync(acme, account, [banner('a')], { delete_missing: true });
    assert.deepEqual(
      (answer.creatives as Json[]).map((c) => [c.creative_id, c.action, c.status, c.changes]),
      [
        ['a', 'unchanged', 'approved', undefined],
        ['b', 'updated', 'archived', ['status']],
        ['c', 'updated', 'archived', ['status']],
      ],
    );
    assert.deepEqual(await ids(acme, { account }), ['a'], 'archived creatives are left out by default');
    const listed = await acme.call('list_creatives', {
      account,
      filters: { statuses: ['archived'] },
      sort: { field: 'name', direction: 'asc' },
    });
    assert.deepEqual(
      (listed.creatives as Json[]).map((c) => [c.creative_id, c.status]),
      [
        ['b', 'archived'],
        ['c', 'archived'],
      ],
    );

    const back = await sync(acme, account, [banner('b')]);
    assert.deepEqual(
      (back.creatives as Json[]).map((c) => [c.creative_id, c.action, c.status, c.changes]),
      [['b', 'updated', 'approved', ['status']]],
    );
    assert.deepEqual(await ids(acme, { account, sort: { field: 'name', direction: 'asc' } }), ['a', 'b']);

    const scoped = await acme.fail('sync_creatives', {
      idempotency_key: randomUUID(),
      account,
      creatives: [banner('a')],
      creative_ids: ['a'],
      delete_missing: true,
    });
    assert.deepEqual([scoped.code, scoped.field], ['INVALID_REQUEST', 'delete_missing']);
  });

  it('lists with each filter, sorts, and pages with a cursor, every creative once', async () => {
    const account = newAccount();
    const start = clock.now().getTime();
    // One a minute, so creation order is plain: a, b, c, d, e.
    for (const creative of [
      banner('a', { tags: ['q1', 'hero'] }),
      banner('b', { tags: ['q1'] }),
      video('c'),
      banner('d', { name: 'Summer Sale' }),
      banner('e'),
    ]) {
      await sync(acme, account, [creative]);
      clock.advance(60_000);
    }
    clock.advance(60_000);
    await sync(acme, account, [banner('a', { tags: ['q1', 'hero'], name: 'Autumn' })]);
    const at = (minutes: number) => new Date(start + minutes * 60_000 + 1).toISOString();
    const listed = (args: Json) => ids(acme, { account, ...args });

    assert.deepEqual(await listed({}), ['e', 'd', 'c', 'b', 'a'], 'newest first by default');
    assert.deepEqual(await listed({ filters: { tags: ['q1', 'hero'] } }), ['a']);
    assert.deepEqual(await listed({ filters: { tags_any: ['hero', 'q1'] } }), ['b', 'a']);
    assert.deepEqual(await listed({ filters: { name_contains: 'SUMMER' } }), ['d']);
    assert.deepEqual(await listed({ filters: { creative_ids: ['a', 'c', 'nope'] } }), ['c', 'a']);
    assert.deepEqual(await listed({ filters: { format_ids: [format('video_15s')] } }), ['c']);
    assert.deepEqual(await listed({ filters: { statuses: ['approved'] } }), ['e', 'd', 'c', 'b', 'a']);
    assert.deepEqual(await listed({ filters: { statuses: ['pending_review'] } }), []);
    assert.deepEqual(await listed({ filters: { created_after: at(1), created_before: at(3) } }), ['d', 'c']);
    assert.deepEqual(
      await listed({ filters: { updated_after: at(5) } }),
      ['a'],
      'a was updated after the others were made',
    );
    assert.deepEqual(await listed({ filters: { updated_before: at(1) } }), ['b']);
    assert.deepEqual(await listed({ filters: { has_served: true } }), [], 'nothing here has served');
    assert.deepEqual(await listed({ filters: { has_served: false } }), ['e', 'd', 'c', 'b', 'a']);
    const ignoring = await acme.call('list_creatives', {
      account,
      filters: { assigned_to_packages: ['pkg_1'], unassigned: false, tags: ['hero'] },
    });
    assert.deepEqual(
      (ignoring.creatives as Json[]).map((c) => c.creative_id),
      ['a'],
      'package filters are ignored by an agent without media buys',
    );
    assert.deepEqual(ignoring.query_summary.filters_applied, ['tags']);

    assert.deepEqual(await listed({ sort: { field: 'name', direction: 'asc' } }), ['a', 'b', 'e', 'd', 'c']);
    assert.deepEqual(await listed({ sort: { field: 'updated_date', direction: 'desc' } }), ['a', 'e', 'd', 'c', 'b']);
    assert.deepEqual(await listed({ sort: { field: 'assignment_count', direction: 'asc' } }), [
      'a',
      'b',
      'c',
      'd',
      'e',
    ]);

    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await acme.call('list_creatives', {
        account,
        sort: { field: 'created_date', direction: 'asc' },
        pagination: { max_results: 2, ...(cursor ? { cursor } : {}) },
      });
      seen.push(...(page.creatives as Json[]).map((c) => c.creative_id as string));
      assert.deepEqual([page.pagination.total_count, page.query_summary.total_matching], [5, 5]);
      assert.equal(page.query_summary.returned, page.creatives.length);
      cursor = page.pagination.has_more ? page.pagination.cursor : undefined;
    } while (cursor);
    assert.deepEqual(seen, ['a', 'b', 'c', 'd', 'e']);
    const bad = await acme.fail('list_creatives', { pagination: { cursor: 'not-a-cursor' } });
    assert.deepEqual([bad.code, bad.field], ['INVALID_REQUEST', 'pagination.cursor']);

    const trimmed = (
      (
        await acme.call('list_creatives', {
          account,
          fields: ['creative_id', 'tags'],
          filters: { creative_ids: ['a'] },
        })
      ).creatives as Json[]
    )[0]!;
    assert.deepEqual(Object.keys(trimmed).sort(), [
      'created_date',
      'creative_id',
      'format_id',
      'name',
      'status',
      'tags',
      'updated_date',
    ]);
  });

  it('keeps libraries apart by account reference, and lists one, several or all of them', async () => {
    const byId = newAccount();
    const byKey = { brand: { domain: `brand-${randomUUID().slice(0, 8)}.example` }, operator: 'agency.example' };
    const sandbox = { ...byKey, sandbox: true };
    await sync(acme, byId, [banner('shared', { name: 'By id' })]);
    const natural = await sync(acme, { ...byKey, sandbox: false }, [banner('shared', { name: 'By key' })]);
    assert.deepEqual(
      lines(natural),
      [['shared', 'created', 'approved']],
      'another library, though the same creative_id',
    );
    const inSandbox = await sync(acme, sandbox, [banner('shared')]);
    assert.deepEqual([lines(inSandbox), inSandbox.sandbox], [[['shared', 'created', 'approved']], true]);

    const names = async (args: Json) =>
      (
        (await acme.call('list_creatives', { ...args, filters: { creative_ids: ['shared'], ...(args.filters ?? {}) } }))
          .creatives as Json[]
      ).map((c) => c.name);
    assert.deepEqual(await names({ account: byKey }), ['By key'], 'sandbox absent is sandbox false');
    assert.deepEqual(await names({ filters: { accounts: [byId, byKey] } }), ['By key', 'By id']);
    assert.deepEqual(
      await names({ account: byId, filters: { accounts: [byKey] } }),
      [],
      'both given: the account, if among the accounts',
    );
    assert.equal((await names({})).length, 3, 'every library of the organization without an account');
    assert.equal((await acme.call('list_creatives', { account: sandbox })).sandbox, true);
  });

  it('shows another organization none of these creatives; every key of the organization sees them', async () => {
    const account = newAccount();
    await sync(acme, account, [banner('mine')]);
    assert.deepEqual(await ids(acmeAgain, { account }), ['mine'], 'another key of the same organization');
    assert.deepEqual(await ids(rival, { account }), []);
    assert.deepEqual(await ids(rival, { filters: { creative_ids: ['mine'] } }), []);
    const theirs = await sync(rival, account, [banner('mine', { name: 'Rival banner' })]);
    assert.deepEqual(
      lines(theirs),
      [['mine', 'created', 'approved']],
      'the same account_id is the rival’s own library',
    );
    const [ours] = (await acme.call('list_creatives', { account })).creatives as Json[];
    assert.equal(ours!.name, 'Banner mine');
  });

  it('replays a retried sync with its first answer, and refuses the key with other arguments', async () => {
    const account = newAccount();
    const args = { idempotency_key: randomUUID(), account, creatives: [banner('once')] };
    const first = await acme.call('sync_creatives', args);
    clock.advance(1000);
    const retried = await acme.call('sync_creatives', args);
    assert.deepEqual([first.replayed, retried.replayed], [false, true]);
    assert.deepEqual({ ...retried, replayed: false }, first);
    assert.equal(
      (retried.creatives as Json[])[0]!.action,
      'created',
      'the replay, not a second sync (which would answer unchanged)',
    );

    const conflict = await acme.fail('sync_creatives', { ...args, creatives: [banner('once', { name: 'Changed' })] });
    assert.equal(conflict.code, 'IDEMPOTENCY_CONFLICT');
    const res = await post(acme.token, { ...args, creatives: [banner('twice')] });
    assert.equal(res.status, 409);
    assert.equal((await json(res)).error.code, 'IDEMPOTENCY_CONFLICT');
    assert.deepEqual(await ids(acme, { account }), ['once']);
  });

  it('answers a bare-string format_id with INVALID_FORMAT_ID, over MCP and plain HTTP', async () => {
    const account = newAccount();
    const bare = { ...banner('bare'), format_id: 'display_300x250' };
    const error = await acme.fail('sync_creatives', { idempotency_key: randomUUID(), account, creatives: [bare] });
    assert.deepEqual([error.code, error.field], ['INVALID_FORMAT_ID', 'creatives[0].format_id']);
    const res = await post(acme.token, { idempotency_key: randomUUID(), account, creatives: [banner('fine'), bare] });
    assert.equal(res.status, 400);
    assert.deepEqual([(await json(res)).error.code], ['INVALID_FORMAT_ID']);
    const listing = await acme.fail('list_creatives', { filters: { format_ids: ['display_300x250'] } });
    assert.equal(listing.code, 'INVALID_FORMAT_ID');
    assert.deepEqual(await ids(acme, { account }), []);
  });
});
