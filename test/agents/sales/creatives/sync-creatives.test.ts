import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, buyerPool, createArgs, list, startSales, sync, video, type Buyer } from './harness.ts';

eachEngine('sales agent: sync_creatives', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  const ids = async (b: Buyer, args: Record<string, unknown> = {}) =>
    ((await list(b, { account: b.account, ...args })).creatives as Json[]).map((c) => c.creative_id as string);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('stores valid creatives with a review status by the account, and tells created, unchanged and updated apart', async () => {
    const production = await newBuyer();
    const created = await sync(production, [banner(server, 'hero'), banner(server, 'side', { tags: ['q1'] })]);
    assert.deepEqual(
      created.creatives.map((c: Json) => [c.creative_id, c.action, c.status]),
      [
        ['hero', 'created', 'pending_review'],
        ['side', 'created', 'pending_review'],
      ],
    );
    assert.equal(created.sandbox, false);

    clock.advance(60_000);
    const again = await sync(production, [
      banner(server, 'hero'),
      banner(server, 'side', { name: 'Side banner v2', tags: ['q1'] }),
    ]);
    assert.deepEqual(
      again.creatives.map((c: Json) => [c.creative_id, c.action, c.changes]),
      [
        ['hero', 'unchanged', undefined],
        ['side', 'updated', ['name']],
      ],
    );
    const side = (await list(production, { account: production.account, filters: { creative_ids: ['side'] } }))
      .creatives[0] as Json;
    assert.equal(side.name, 'Side banner v2');
    assert.deepEqual(side.tags, ['q1']);
    assert.equal(side.updated_date, clock.now().toISOString());
    assert.equal(side.created_date, new Date(clock.now().getTime() - 60_000).toISOString());

    const sandbox = await newBuyer({ sandbox: true });
    const approved = await sync(sandbox, [banner(server, 'hero')]);
    assert.deepEqual(
      approved.creatives.map((c: Json) => [c.creative_id, c.action, c.status]),
      [['hero', 'created', 'approved']],
    );
    assert.equal(approved.sandbox, true);
  });

  it('answers an unknown format and a missing asset per creative in lenient mode, storing the valid ones of the same call', async () => {
    const b = await newBuyer();
    const unknown = {
      ...banner(server, 'alien'),
      format_id: { agent_url: `${server.url}/creative/mcp`, id: 'hologram_3d' },
    };
    const missing = banner(server, 'bare');
    delete missing.assets.banner_image;
    const answer = await sync(b, [banner(server, 'good'), unknown, missing], { validation_mode: 'lenient' });
    const byId = Object.fromEntries(answer.creatives.map((c: Json) => [c.creative_id, c]));
    assert.deepEqual([byId.good.action, byId.alien.action, byId.bare.action], ['created', 'failed', 'failed']);
    assert.deepEqual(
      byId.alien.errors.map((e: Json) => [e.code, e.field]),
      [['VALIDATION_ERROR', 'creatives[1].format_id']],
    );
    assert.deepEqual(
      byId.bare.errors.map((e: Json) => [e.code, e.field]),
      [['VALIDATION_ERROR', 'creatives[2].assets.banner_image']],
    );
    assert.equal(byId.alien.status, undefined, 'a failed creative has no review status');
    assert.deepEqual(await ids(b), ['good']);

    const twice = await sync(b, [banner(server, 'twin'), banner(server, 'twin', { name: 'Other twin' })], {
      validation_mode: 'lenient',
    });
    assert.deepEqual(
      twice.creatives.map((c: Json) => [c.creative_id, c.action, c.errors[0].code]),
      [['twin', 'failed', 'INVALID_REQUEST']],
    );
    assert.deepEqual(await ids(b), ['good'], 'neither copy of a repeated id is stored');
  });

  it('fails a creative whose assets break its format’s requirements, at the property at fault', async () => {
    const b = await newBuyer();
    const wide = banner(server, 'wide');
    wide.assets.banner_image.width = 320;
    const plain = banner(server, 'plain');
    plain.assets.click_url.url = 'http://brand.example/landing';
    const long = { ...video(server, 'long') };
    long.assets.video_file.duration_ms = 30_000;
    const answer = await sync(b, [wide, plain, long, banner(server, 'fine')], { validation_mode: 'lenient' });
    assert.deepEqual(
      answer.creatives.map((c: Json) => [c.creative_id, c.action, c.errors?.map((e: Json) => [e.code, e.field])]),
      [
        ['wide', 'failed', [['VALIDATION_ERROR', 'creatives[0].assets.banner_image.width']]],
        ['plain', 'failed', [['VALIDATION_ERROR', 'creatives[1].assets.click_url.url']]],
        ['long', 'failed', [['VALIDATION_ERROR', 'creatives[2].assets.video_file.duration_ms']]],
        ['fine', 'created', undefined],
      ],
    );
    assert.deepEqual(await ids(b), ['fine']);
  });

  it('refuses the whole sync in strict mode, the default, storing nothing', async () => {
    const b = await newBuyer();
    const unknown = {
      ...banner(server, 'alien'),
      format_id: { agent_url: 'https://elsewhere.example/mcp', id: 'display_300x250' },
    };
    const error = await b.fail('sync_creatives', {
      idempotency_key: randomUUID(),
      account: b.account,
      creatives: [banner(server, 'good'), unknown],
    });
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.field, 'creatives[1].format_id');
    assert.deepEqual(
      error.details.creatives.map((c: Json) => c.creative_id),
      ['alien'],
    );
    assert.deepEqual(await ids(b), []);
  });

  it('previews with dry_run, writing nothing', async () => {
    const b = await newBuyer();
    const preview = await sync(b, [banner(server, 'maybe')], { dry_run: true });
    assert.equal(preview.dry_run, true);
    assert.deepEqual(
      preview.creatives.map((c: Json) => [c.creative_id, c.action]),
      [['maybe', 'created']],
    );
    assert.deepEqual(await ids(b), []);
  });

  it('replays a retried sync with its first answer', async () => {
    const b = await newBuyer();
    const args = { idempotency_key: randomUUID(), account: b.account, creatives: [banner(server, 'once')] };
    const first = await b.call('sync_creatives', args);
    clock.advance(1000);
    const retried = await b.call('sync_creatives', args);
    assert.deepEqual([first.replayed, retried.replayed], [false, true]);
    assert.deepEqual({ ...retried, replayed: false }, first);
    assert.equal(
      retried.creatives[0].action,
      'created',
      'the replay, not a second sync (which would answer unchanged)',
    );
    assert.deepEqual(await ids(b), ['once']);
  });

  it('assigns creatives to packages: the buy leaves pending_creatives with a revision bump and a history entry', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const [display, auction] = buy.packages.map((p: Json) => p.package_id as string);
    await sync(b, [banner(server, 'library_banner')]);
    const answer = await sync(b, [banner(server, 'new_banner'), video(server, 'clip')], {
      validation_mode: 'lenient',
      assignments: [
        { creative_id: 'new_banner', package_id: display },
        { creative_id: 'library_banner', package_id: auction, weight: 60 },
        { creative_id: 'clip', package_id: display },
        { creative_id: 'new_banner', package_id: 'pkg_nowhere' },
      ],
    });
    const byId = Object.fromEntries(answer.creatives.map((c: Json) => [c.creative_id, c]));
    assert.deepEqual(byId.new_banner.assigned_to, [display]);
    assert.match(byId.new_banner.assignment_errors.pkg_nowhere, /^PACKAGE_NOT_FOUND/);
    assert.deepEqual([byId.library_banner.action, byId.library_banner.assigned_to], ['unchanged', [auction]]);
    assert.match(byId.clip.assignment_errors[display], /^VALIDATION_ERROR: .*video_15s/);
    assert.equal(byId.clip.action, 'created', 'the video is stored; only its assignment failed');

    const stored = (await b.get({ media_buy_ids: [buy.media_buy_id], include_history: 10 })).media_buys[0] as Json;
    assert.deepEqual([stored.status, stored.revision], ['pending_start', 2], 'its flight starts in ten days');
    assert.deepEqual(
      stored.history
        .filter((e: Json) => e.revision === 2)
        .map((e: Json) => [e.action, e.package_id])
        .sort(),
      [
        ['creatives_assigned', auction],
        ['creatives_assigned', display],
      ].sort(),
    );
    assert.match(stored.history[0].summary, /pending_start/);

    const again = await sync(b, [banner(server, 'new_banner')], {
      assignments: [{ creative_id: 'new_banner', package_id: display }],
    });
    assert.deepEqual(again.creatives[0].assigned_to, [display]);
    assert.equal(
      (await b.get({ media_buy_ids: [buy.media_buy_id] })).media_buys[0].revision,
      2,
      'an assignment already made changes no buy',
    );
  });

  it('resumes a paused buy that has creatives to what its flight makes it, not back to waiting for creatives', async () => {
    const b = await newBuyer();
    const buy = await b.create({ start_time: 'asap' });
    await sync(b, [banner(server, 'running')], {
      assignments: [{ creative_id: 'running', package_id: buy.packages[0].package_id }],
    });
    assert.equal(
      (await b.get({ media_buy_ids: [buy.media_buy_id] })).media_buys[0].status,
      'active',
      'an asap buy with its first creative is live',
    );
    await b.update(buy.media_buy_id, { paused: true });
    const resumed = await b.update(buy.media_buy_id, { paused: false });
    assert.deepEqual([resumed.status, resumed.revision], ['active', 4]);
  });

  it('lets create_media_buy assign library creatives to its packages, checking they are the account’s and of a format the package takes', async () => {
    const b = await newBuyer();
    await sync(b, [banner(server, 'ready'), video(server, 'clip')]);
    const fixed = { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 };
    const wrongFormat = await b.fail(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, {
        packages: [{ ...fixed, creative_assignments: [{ creative_id: 'clip' }] }],
      }),
    );
    assert.deepEqual(
      [wrongFormat.code, wrongFormat.field],
      ['VALIDATION_ERROR', 'packages[0].creative_assignments[0].creative_id'],
    );
    assert.deepEqual(
      (await b.get({ status_filter: ['pending_creatives', 'pending_start'] })).media_buys,
      [],
      'a refused buy books nothing',
    );

    const buy = await b.create({
      packages: [{ ...fixed, creative_assignments: [{ creative_id: 'ready', weight: 100 }] }],
    });
    assert.deepEqual([buy.status, buy.revision], ['pending_start', 1]);
    const ready = (await list(b, { account: b.account, filters: { creative_ids: ['ready'] } })).creatives[0] as Json;
    assert.deepEqual(
      ready.assignments.assigned_packages.map((p: Json) => [p.package_id, p.weight]),
      [[buy.packages[0].package_id, 100]],
    );
  });

  it('keeps a creative listed, with its assignment, after the buy it served is canceled', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const pkg = buy.packages[0].package_id as string;
    await sync(b, [banner(server, 'survivor')], { assignments: [{ creative_id: 'survivor', package_id: pkg }] });
    await b.update(buy.media_buy_id, { canceled: true });
    const survivor = (await list(b, { account: b.account })).creatives[0] as Json;
    assert.equal(survivor.creative_id, 'survivor');
    assert.deepEqual(
      survivor.assignments.assigned_packages.map((p: Json) => p.package_id),
      [pkg],
    );
    const late = await sync(b, [banner(server, 'late')], {
      validation_mode: 'lenient',
      assignments: [{ creative_id: 'late', package_id: pkg }],
    });
    assert.match(late.creatives[0].assignment_errors[pkg], /^INVALID_STATE/);
  });

  it('keeps each caller’s creatives and packages its own', async () => {
    const owner = await newBuyer();
    const buy = await owner.create();
    await sync(owner, [banner(server, 'private')]);
    const other = await newBuyer({ org: true });
    assert.deepEqual(await ids(other, { account: undefined }), []);
    const error = await other.fail('list_creatives', { account: owner.account });
    assert.equal(error.code, 'ACCOUNT_NOT_FOUND');
    const answer = await sync(other, [banner(server, 'private')], {
      validation_mode: 'lenient',
      assignments: [{ creative_id: 'private', package_id: buy.packages[0].package_id }],
    });
    assert.equal(answer.creatives[0].action, 'created', 'its own creative of the same id');
    assert.match(answer.creatives[0].assignment_errors[buy.packages[0].package_id], /^PACKAGE_NOT_FOUND/);
    assert.equal((await owner.get({ media_buy_ids: [buy.media_buy_id] })).media_buys[0].status, 'pending_creatives');
  });
});
