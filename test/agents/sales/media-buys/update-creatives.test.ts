import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, it } from 'node:test';
import { validActions } from '../../../../src/agents/sales/media-buys/index.ts';
import { ManualClock } from '../../../support/clock.ts';
import { eachEngine } from '../../../support/engines.ts';
import type { Json } from '../../../support/http.ts';
import type { TestServer } from '../../../support/server.ts';
import { banner, list, sync, video } from '../creatives/harness.ts';
import { buyerPool, createArgs, startSales, type Buyer } from './harness.ts';

eachEngine('sales agent: creatives of media buy packages (update_media_buy, create_media_buy)', (engine) => {
  let server: TestServer;
  const clock = new ManualClock();
  const buyers = buyerPool(() => server, clock);
  const newBuyer = buyers.add;
  const refused = async (
    b: Buyer,
    mediaBuyId: string,
    changes: Record<string, unknown>,
    code: string,
    field?: string,
  ) => {
    const error = await b.fail('update_media_buy', {
      idempotency_key: randomUUID(),
      account: b.account,
      media_buy_id: mediaBuyId,
      ...changes,
    });
    assert.deepEqual([error.code, error.field], [code, field], JSON.stringify(error));
    return error;
  };
  const current = async (b: Buyer, mediaBuyId: string, history = 0) =>
    (await b.get({ media_buy_ids: [mediaBuyId], include_history: history })).media_buys[0] as Json;
  /** Each of the account's creatives with the packages it is assigned to (and weights). */
  const assignments = async (b: Buyer) =>
    Object.fromEntries(
      ((await list(b, { account: b.account })).creatives as Json[]).map((c) => [
        c.creative_id,
        c.assignments.assigned_packages.map((p: Json) => [p.package_id, p.weight ?? null]),
      ]),
    );
  const rowsOf = async (packageId: string) =>
    (
      await server.db.query<{ creative_id: string }>(
        'select creative_id from sales_creative_assignments where package_id = $1 order by creative_id',
        [packageId],
      )
    ).map((r) => r.creative_id);

  before(async () => {
    server = await startSales(engine, clock);
  });
  after(async () => {
    await buyers.closeAll();
    await server.close();
  });

  it('assigns library creatives by update: the buy leaves pending_creatives, one revision, a history entry, and list_creatives shows it', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const [display] = buy.packages.map((p: Json) => p.package_id as string);
    await sync(b, [banner(server, 'lib_a'), banner(server, 'lib_b')]);

    const answer = await b.update(buy.media_buy_id, {
      revision: 1,
      packages: [{ package_id: display, creative_assignments: [{ creative_id: 'lib_a', weight: 70 }] }],
    });
    assert.deepEqual(
      [answer.status, answer.revision, answer.valid_actions],
      ['pending_start', 2, validActions('pending_start')],
      'its flight starts in ten days',
    );
    assert.deepEqual(
      answer.affected_packages.map((p: Json) => [p.package_id, p.creative_assignments]),
      [[display, [{ creative_id: 'lib_a', weight: 70 }]]],
    );
    assert.deepEqual(await assignments(b), { lib_a: [[display, 70]], lib_b: [] });

    const stored = await current(b, buy.media_buy_id, 10);
    assert.deepEqual([stored.status, stored.revision], ['pending_start', 2]);
    assert.deepEqual(
      stored.packages[0].creative_assignments,
      [{ creative_id: 'lib_a', weight: 70 }],
      'get_media_buys shows the assignment',
    );
    assert.deepEqual(stored.packages[1].creative_assignments, []);
    const entry = stored.history.find((e: Json) => e.revision === 2);
    assert.deepEqual([entry.action, entry.package_id], ['creatives_assigned', display]);
    assert.match(entry.summary, /lib_a.*pending_start/);
  });

  it('replaces a package’s assignments with creative_assignments, really removing the others; a running buy left without any stays active, its packages reporting the formats they wait for', async () => {
    const b = await newBuyer();
    const buy = await b.create({ start_time: 'asap' });
    const id = buy.media_buy_id;
    const [display, auction] = buy.packages.map((p: Json) => p.package_id as string);
    await sync(b, [banner(server, 'one'), banner(server, 'two'), banner(server, 'three')], {
      assignments: [{ creative_id: 'three', package_id: auction }],
    });
    await b.update(id, {
      packages: [
        { package_id: display, creative_assignments: [{ creative_id: 'one' }, { creative_id: 'two', weight: 10 }] },
      ],
    });

    const replaced = await b.update(id, {
      packages: [{ package_id: display, creative_assignments: [{ creative_id: 'two', weight: 90 }] }],
    });
    assert.deepEqual([replaced.status, replaced.revision], ['active', 4]);
    assert.deepEqual(replaced.affected_packages[0].creative_assignments, [{ creative_id: 'two', weight: 90 }]);
    assert.deepEqual(await rowsOf(display), ['two'], 'the row of the creative left out is gone');
    assert.deepEqual(
      await assignments(b),
      { one: [], two: [[display, 90]], three: [[auction, null]] },
      'another package keeps its own',
    );
    const history = (await current(b, id, 10)).history
      .filter((e: Json) => e.revision === 4)
      .map((e: Json) => e.action)
      .sort();
    assert.deepEqual(
      history,
      ['creatives_unassigned', 'updated_packages'],
      'one removed, one kept with another weight',
    );
    assert.deepEqual(
      ((await list(b, { account: b.account, filters: { unassigned: true } })).creatives as Json[]).map(
        (c) => c.creative_id,
      ),
      ['one'],
    );

    const budgetOnly = await b.update(id, { packages: [{ package_id: display, budget: 6000 }] });
    assert.deepEqual(
      budgetOnly.affected_packages[0].creative_assignments,
      [{ creative_id: 'two', weight: 90 }],
      'without creative_assignments the list stays',
    );

    const emptied = await b.update(id, {
      packages: [
        { package_id: display, creative_assignments: [] },
        { package_id: auction, creative_assignments: [] },
      ],
    });
    assert.deepEqual(
      [emptied.status, emptied.revision, emptied.valid_actions],
      ['active', 6, validActions('active')],
      'no published move goes back to pending_creatives',
    );
    assert.deepEqual([await rowsOf(display), await rowsOf(auction)], [[], []]);
    const stored = await current(b, id, 10);
    const last = stored.history.filter((e: Json) => e.revision === 6);
    assert.deepEqual(
      last.map((e: Json) => [e.action, e.package_id]).sort(),
      [
        ['creatives_unassigned', auction],
        ['creatives_unassigned', display],
      ].sort(),
    );
    assert.doesNotMatch(last[0].summary, /pending_creatives/);
    for (const pkg of stored.packages)
      assert.ok(
        pkg.format_ids_pending.some((f: Json) => f.id === 'display_300x250'),
        `${pkg.package_id} reports the formats it waits for`,
      );
  });

  it('refuses an unknown creative, one of a format the package does not take, and one named twice, changing nothing', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const id = buy.media_buy_id;
    const display = buy.packages[0].package_id as string;
    await sync(b, [banner(server, 'fits'), video(server, 'clip')]);

    await refused(
      b,
      id,
      { packages: [{ package_id: display, creative_assignments: [{ creative_id: 'ghost' }] }] },
      'CREATIVE_NOT_FOUND',
      'packages[0].creative_assignments[0].creative_id',
    );
    const wrong = await refused(
      b,
      id,
      { packages: [{ package_id: display, creative_assignments: [{ creative_id: 'fits' }, { creative_id: 'clip' }] }] },
      'VALIDATION_ERROR',
      'packages[0].creative_assignments[1].creative_id',
    );
    assert.match(wrong.message, /video_15s/);
    await refused(
      b,
      id,
      {
        packages: [
          { package_id: display, creative_assignments: [{ creative_id: 'fits' }, { creative_id: 'fits', weight: 5 }] },
        ],
      },
      'INVALID_REQUEST',
      'packages[0].creative_assignments[1].creative_id',
    );
    const other = await newBuyer();
    await sync(other, [banner(server, 'theirs')]);
    await refused(
      b,
      id,
      { packages: [{ package_id: display, creative_assignments: [{ creative_id: 'theirs' }] }] },
      'CREATIVE_NOT_FOUND',
      'packages[0].creative_assignments[0].creative_id',
    );

    const stored = await current(b, id);
    assert.deepEqual([stored.status, stored.revision], ['pending_creatives', 1]);
    assert.deepEqual(await rowsOf(display), []);
  });

  it('stores inline creatives in the library, checked as sync_creatives checks them, and assigns them besides the package’s others', async () => {
    const b = await newBuyer();
    const buy = await b.create({ start_time: 'asap' });
    const id = buy.media_buy_id;
    const display = buy.packages[0].package_id as string;
    await sync(b, [banner(server, 'library')], { assignments: [{ creative_id: 'library', package_id: display }] });

    clock.advance(1000);
    const answer = await b.update(id, {
      packages: [{ package_id: display, creatives: [banner(server, 'inline', { weight: 40, tags: ['launch'] })] }],
    });
    assert.deepEqual([answer.status, answer.revision], ['active', 3]);
    assert.deepEqual(answer.affected_packages[0].creative_assignments, [
      { creative_id: 'library' },
      { creative_id: 'inline', weight: 40 },
    ]);
    const inline = (
      (await list(b, { account: b.account, filters: { creative_ids: ['inline'] } })).creatives as Json[]
    )[0]!;
    assert.deepEqual(
      [inline.status, inline.tags, inline.created_date],
      ['pending_review', ['launch'], clock.now().toISOString()],
      'reviewed as a synced one',
    );
    assert.equal(inline.weight, undefined, 'the weight is the assignment’s, not the creative’s');
    assert.deepEqual(await assignments(b), { inline: [[display, 40]], library: [[display, null]] });
    const entry = (await current(b, id, 1)).history[0];
    assert.deepEqual([entry.revision, entry.action, entry.package_id], [3, 'creatives_assigned', display]);

    const both = await b.update(id, {
      packages: [
        {
          package_id: display,
          creative_assignments: [{ creative_id: 'library' }],
          creatives: [banner(server, 'fresh')],
        },
      ],
    });
    assert.deepEqual(
      both.affected_packages[0].creative_assignments.map((a: Json) => a.creative_id),
      ['library', 'fresh'],
      'the list replaced, then the uploads added',
    );
  });

  it('refuses an inline creative sync_creatives would refuse, storing nothing and leaving the buy as it was', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const id = buy.media_buy_id;
    const [display, auction] = buy.packages.map((p: Json) => p.package_id as string);
    const bare = banner(server, 'bare');
    delete bare.assets.banner_image;

    const error = await refused(
      b,
      id,
      { packages: [{ package_id: auction, budget: 1500, creatives: [banner(server, 'good'), bare] }] },
      'VALIDATION_ERROR',
      'packages[0].creatives[1].assets.banner_image',
    );
    assert.deepEqual(
      error.details.creatives.map((c: Json) => [c.creative_id, c.action, c.errors[0].field]),
      [['bare', 'failed', 'packages[0].creatives[1].assets.banner_image']],
    );
    const alien = {
      ...banner(server, 'alien'),
      format_id: { agent_url: `${server.url}/creative/mcp`, id: 'hologram_3d' },
    };
    await refused(
      b,
      id,
      { packages: [{ package_id: display, creatives: [alien] }] },
      'VALIDATION_ERROR',
      'packages[0].creatives[0].format_id',
    );
    await refused(
      b,
      id,
      { packages: [{ package_id: display, creatives: [video(server, 'clip')] }] },
      'VALIDATION_ERROR',
      'packages[0].creatives[0].format_id',
    );
    await refused(
      b,
      id,
      {
        packages: [
          { package_id: display, creatives: [banner(server, 'twin')] },
          { package_id: auction, creatives: [banner(server, 'twin')] },
        ],
      },
      'VALIDATION_ERROR',
      'packages[1].creatives[0].creative_id',
    );

    const stored = await current(b, id);
    assert.deepEqual(
      [stored.status, stored.revision, stored.packages[1].budget],
      ['pending_creatives', 1, 1000],
      'no part of a refused update applies',
    );
    assert.deepEqual((await list(b, { account: b.account })).creatives, [], 'no creative stored');
  });

  it('refuses creatives for a finished buy or a canceled package as other package changes are, and keyword operations by name', async () => {
    const b = await newBuyer();
    await sync(b, [banner(server, 'ready')]);
    const buy = await b.create();
    const [display, auction] = buy.packages.map((p: Json) => p.package_id as string);
    await b.update(buy.media_buy_id, { packages: [{ package_id: auction, canceled: true }] });
    await refused(
      b,
      buy.media_buy_id,
      { packages: [{ package_id: auction, creative_assignments: [{ creative_id: 'ready' }] }] },
      'INVALID_STATE',
      'packages[0].package_id',
    );
    await refused(
      b,
      buy.media_buy_id,
      { packages: [{ package_id: display, canceled: true, creatives: [banner(server, 'late')] }] },
      'INVALID_REQUEST',
      'packages[0].canceled',
    );
    await refused(
      b,
      buy.media_buy_id,
      { packages: [{ package_id: display, keyword_targets_add: [{ keyword: 'news', match_type: 'broad' }] }] },
      'UNSUPPORTED_FEATURE',
      'packages[0].keyword_targets_add',
    );

    await b.update(buy.media_buy_id, { canceled: true });
    const finished = await refused(
      b,
      buy.media_buy_id,
      { packages: [{ package_id: display, creative_assignments: [{ creative_id: 'ready' }] }] },
      'INVALID_STATE',
    );
    assert.equal(finished.details.status, 'canceled');
    await refused(
      b,
      buy.media_buy_id,
      { packages: [{ package_id: display, creatives: [banner(server, 'late')] }] },
      'INVALID_STATE',
    );
    const stored = await current(b, buy.media_buy_id);
    assert.deepEqual([stored.status, stored.revision], ['canceled', 3]);
    assert.deepEqual(await assignments(b), { ready: [] }, 'nothing assigned, the late creative not stored');
  });

  it('takes creatives with the packages of create_media_buy and with new packages of an update', async () => {
    const b = await newBuyer();
    await sync(b, [banner(server, 'kept')]);
    const fixed = { product_id: 'dh_news_display', pricing_option_id: 'cpm_fixed', budget: 5000 };
    const bare = banner(server, 'bare');
    delete bare.assets.click_url;
    const error = await b.fail(
      'create_media_buy',
      createArgs(clock, b.account, b.domain, { packages: [{ ...fixed, creatives: [bare] }] }),
    );
    assert.deepEqual([error.code, error.field], ['VALIDATION_ERROR', 'packages[0].creatives[0].assets.click_url']);
    assert.deepEqual(
      (await b.get({ status_filter: ['pending_creatives', 'pending_start'] })).media_buys,
      [],
      'a refused buy books nothing',
    );
    assert.deepEqual(Object.keys(await assignments(b)), ['kept'], 'and stores no creative');

    const buy = await b.create({
      packages: [
        {
          ...fixed,
          creatives: [banner(server, 'uploaded')],
          creative_assignments: [{ creative_id: 'kept', weight: 50 }],
        },
      ],
    });
    const pkg = buy.packages[0].package_id as string;
    assert.deepEqual([buy.status, buy.revision], ['pending_start', 1]);
    assert.deepEqual(buy.packages[0].creative_assignments, [
      { creative_id: 'kept', weight: 50 },
      { creative_id: 'uploaded' },
    ]);
    assert.deepEqual(await assignments(b), { uploaded: [[pkg, null]], kept: [[pkg, 50]] });

    const added = await b.update(buy.media_buy_id, {
      new_packages: [
        {
          product_id: 'cr_recipe_display',
          pricing_option_id: 'cpm_fixed',
          budget: 2000,
          creative_assignments: [{ creative_id: 'kept' }],
        },
      ],
    });
    assert.equal(added.revision, 2);
    const [fresh] = added.affected_packages;
    assert.deepEqual(fresh.creative_assignments, [{ creative_id: 'kept' }]);
    await refused(
      b,
      buy.media_buy_id,
      { new_packages: [{ ...fixed, creative_assignments: [{ creative_id: 'ghost' }] }] },
      'CREATIVE_NOT_FOUND',
      'new_packages[0].creative_assignments[0].creative_id',
    );
    assert.equal((await current(b, buy.media_buy_id)).packages.length, 2, 'the refused new package is not added');
  });

  it('runs alongside sync_creatives on the same account and buy: both apply, one revision each', async () => {
    const b = await newBuyer();
    const buy = await b.create();
    const [display, auction] = buy.packages.map((p: Json) => p.package_id as string);
    for (let round = 0; round < 3; round++) {
      await Promise.all([
        sync(b, [banner(server, `synced_${round}`)], {
          assignments: [{ creative_id: `synced_${round}`, package_id: display }],
        }),
        b.update(buy.media_buy_id, {
          packages: [{ package_id: auction, creatives: [banner(server, `inline_${round}`)] }],
        }),
      ]);
    }
    const stored = await current(b, buy.media_buy_id, 100);
    assert.equal(stored.revision, 7);
    assert.deepEqual([...new Set(stored.history.map((e: Json) => e.revision))], [7, 6, 5, 4, 3, 2, 1]);
    assert.deepEqual([(await rowsOf(display)).length, (await rowsOf(auction)).length], [3, 3]);
  });
});
