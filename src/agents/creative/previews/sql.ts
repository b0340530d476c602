import type { Queryable } from '../../../db/database.ts';

export interface NewPreview {
  key: string;
  html: string;
  width: number;
  height: number;
  snapshotSource: Record<string, unknown> | null;
  png: Uint8Array | null;
}

export interface PreviewRow {
  html: string;
  width: number;
  height: number;
  snapshot_source: Record<string, unknown> | null;
  png: Uint8Array | null;
  expires_at: Date;
}

/** Stores a call's previews in one statement, however many variants and requests it had. */
export async function insertPreviews(db: Queryable, principal: string, previews: readonly NewPreview[], now: Date, expiresAt: Date): Promise<void> {
  if (previews.length === 0) return;
  const values: unknown[] = [principal, now, expiresAt];
  const rows = previews.map((p) => {
    values.push(p.key, p.html, p.width, p.height, p.snapshotSource && JSON.stringify(p.snapshotSource), p.png);
    const at = values.length - 6;
    return `($${at + 1}, $1, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::jsonb, $${at + 6}::bytea, $2, $3)`;
  });
  await db.query(`insert into creative_previews (preview_key, principal, html, width, height, snapshot_source, png, created_at, expires_at) values ${rows.join(', ')}`, values);
}

export async function findPreview(db: Queryable, key: string): Promise<PreviewRow | undefined> {
  const [row] = await db.query<PreviewRow>('select html, width, height, snapshot_source, png, expires_at from creative_previews where preview_key = $1', [key]);
  return row;
}

/** Keeps a snapshot rendered at its first fetch (the first writer wins; they are the same bytes). */
export async function storeSnapshot(db: Queryable, key: string, png: Uint8Array): Promise<void> {
  await db.query('update creative_previews set png = $2 where preview_key = $1 and png is null', [key, png]);
}

/** Forgets previews expired before `before`. */
export async function pruneExpired(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>('with gone as (delete from creative_previews where expires_at < $1 returning 1) select count(*)::int as n from gone', [before]);
  return rows[0]?.n ?? 0;
}
