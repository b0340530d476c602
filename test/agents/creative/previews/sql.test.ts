import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import {
  findPreview,
  insertPreviews,
  PreviewSet,
  pruneExpired,
  storeSnapshot,
} from '../../../../src/agents/creative/previews/sql.ts';
import type { Database } from '../../../../src/db/database.ts';
import { loadMigrations, migrate } from '../../../../src/db/migrate.ts';
import { eachEngine } from '../../../support/engines.ts';

const manifest = (color: string) => ({
  format_id: { agent_url: 'https://agent.example/creative/mcp', id: 'display_300x250' },
  assets: {
    banner_image: { asset_type: 'image', url: `https://images.example/${color}.png`, width: 300, height: 250 },
  },
});
const png = (byte: number) => new Uint8Array([0x89, 0x50, 0x4e, 0x47, byte]);
/** Bytes as both engines answer them comparably (PostgreSQL's driver gives Buffers, PGlite Uint8Arrays). */
const bytes = (b: Uint8Array | null | undefined) => (b ? [...b] : null);

/**
 * How hosted previews are kept: the previews of one call as one set, each served by its own key;
 * variants of one creative sharing its manifest; snapshots stored once; previews recorded before
 * sets (under the two shapes rows had) still served under their keys until they expire.
 */
eachEngine('creative previews storage', (engine) => {
  let db: Database;
  const now = new Date('2026-11-24T12:00:00Z');
  const expires = new Date('2026-11-25T12:00:00Z');
  const legacyPage = 'Lq3xVb9mN2pQ7rS4tU6wYz';
  const legacySource = '0b6d5c1e-7f3a-4c2b-9e8d-1a2b3c4d5e6f';

  before(async () => {
    db = await engine.open();
    const migrations = await loadMigrations();
    const before31 = migrations.filter((m) => m.version < 31);
    await migrate(db, before31);
    // As rows were written by each earlier version: the page and its snapshot's source; then the source alone, with a rendered snapshot.
    await db.query(
      `insert into creative_previews (preview_key, principal, html, width, height, snapshot_source, created_at, expires_at) values ($1, 'p', '<p>as recorded</p>', 300, 250, $2::jsonb, $3, $4)`,
      [
        legacyPage,
        JSON.stringify({
          format_id: { agent_url: 'https://agent.example/creative/mcp', id: 'display_300x250' },
          manifest: manifest('red'),
          macros: { DEVICE_TYPE: 'mobile' },
        }),
        now,
        expires,
      ],
    );
    await db.query(
      `insert into creative_previews (preview_key, principal, source, width, height, png, created_at, expires_at) values ($1, 'p', $2, 728, 90, $3, $4, $5)`,
      [
        legacySource,
        JSON.stringify({ format: 'display_728x90', manifest: manifest('blue'), macros: {} }),
        png(1),
        now,
        expires,
      ],
    );
    await migrate(db, migrations);
  });
  after(async () => {
    await db?.close();
  });

  it('serves previews recorded before sets under their own keys', async () => {
    assert.deepEqual(
      { ...(await findPreview(db, legacyPage)) },
      {
        source: { format: 'display_300x250', manifest: manifest('red'), macros: { DEVICE_TYPE: 'mobile' } },
        html: '<p>as recorded</p>',
        width: 300,
        height: 250,
        png: null,
        expires_at: expires,
      },
    );
    const moved = await findPreview(db, legacySource);
    assert.deepEqual(moved?.source, { format: 'display_728x90', manifest: manifest('blue'), macros: {} });
    assert.deepEqual(
      [moved?.html, moved?.width, moved?.height, bytes(moved?.png)],
      [undefined, 728, 90, bytes(png(1))],
    );
  });

  it('keeps a call’s previews as one set: each under its key, a shared manifest once, snapshots by position', async () => {
    const set = new PreviewSet();
    const red = manifest('red');
    const keys = [
      set.add({
        source: { format: 'display_300x250', manifest: red, macros: { DEVICE_TYPE: 'mobile' } },
        width: 300,
        height: 250,
        png: null,
      }),
      set.add({
        source: { format: 'display_300x250', manifest: red, macros: { DEVICE_TYPE: 'desktop' } },
        width: 300,
        height: 250,
        png: png(2),
      }),
      set.add({
        source: { format: 'display_728x90', manifest: manifest('green'), macros: {} },
        width: 728,
        height: 90,
        png: null,
      }),
    ];
    assert.equal(new Set(keys).size, 3);
    await insertPreviews(db, 'p', set, now, expires);
    const found = await Promise.all(keys.map((key) => findPreview(db, key)));
    assert.deepEqual(
      found.map((p) => [p?.source?.macros, p?.source?.manifest.assets, p?.width, bytes(p?.png)]),
      [
        [{ DEVICE_TYPE: 'mobile' }, red.assets, 300, null],
        [{ DEVICE_TYPE: 'desktop' }, red.assets, 300, bytes(png(2))],
        [{}, manifest('green').assets, 728, null],
      ],
    );
    const [row] = await db.query<{ previews: string }>(
      'select previews from creative_preview_sets where set_key = $1',
      [set.key],
    );
    assert.equal(
      (JSON.parse(row!.previews) as { manifests: unknown[] }).manifests.length,
      2,
      'the variants’ manifest is stored once',
    );

    // A snapshot rendered at its first fetch is kept; a second writer changes nothing.
    await storeSnapshot(db, keys[0]!, png(3));
    await storeSnapshot(db, keys[0]!, png(4));
    assert.deepEqual(bytes((await findPreview(db, keys[0]!))?.png), bytes(png(3)));
    assert.equal(await findPreview(db, `${set.key}-3`), undefined, 'no fourth preview in the set');
    assert.equal(await findPreview(db, `${'0'.repeat(32)}-0`), undefined);
  });

  it('forgets a batch request’s previews when it fails part way', async () => {
    const set = new PreviewSet();
    const kept = set.add({
      source: { format: 'display_300x250', manifest: manifest('red'), macros: {} },
      width: 300,
      height: 250,
      png: null,
    });
    set.add({
      source: { format: 'display_300x250', manifest: manifest('blue'), macros: {} },
      width: 300,
      height: 250,
      png: null,
    });
    set.truncate(1);
    const next = set.add({
      source: { format: 'display_728x90', manifest: manifest('green'), macros: {} },
      width: 728,
      height: 90,
      png: null,
    });
    await insertPreviews(db, 'p', set, now, expires);
    assert.equal((await findPreview(db, kept))?.width, 300);
    assert.equal((await findPreview(db, next))?.width, 728, 'the key of the forgotten preview now names the next one');
  });

  it('prunes sets that expired before a time, with their snapshots', async () => {
    const set = new PreviewSet();
    const key = set.add({
      source: { format: 'display_300x250', manifest: manifest('red'), macros: {} },
      width: 300,
      height: 250,
      png: png(5),
    });
    const early = new Date('2026-11-20T00:00:00Z');
    await insertPreviews(db, 'p', set, early, new Date('2026-11-21T00:00:00Z'));
    assert.equal(await pruneExpired(db, new Date('2026-11-22T00:00:00Z')), 1);
    assert.equal(await findPreview(db, key), undefined);
    const [left] = await db.query<{ n: number }>(
      'select count(*)::int as n from creative_preview_snapshots where set_key = $1',
      [set.key],
    );
    assert.equal(left!.n, 0);
    assert.ok(await findPreview(db, legacyPage), 'previews still live are kept');
  });
});
