import type { Queryable } from '../../../db/database.ts';
import type { CreativeManifest } from '../../formats/index.ts';

/** What a hosted preview is rendered from, when it is opened. */
export interface PreviewSource {
  /** The format's id (its agent URL is this deployment's, in whatever spelling it has now). */
  format: string;
  manifest: CreativeManifest;
  macros: Record<string, string>;
}

export interface NewPreview {
  key: string;
  source: PreviewSource;
  width: number;
  height: number;
  /** The PNG snapshot when the call rendered it (quality production). */
  png: Uint8Array | null;
}

export interface PreviewRow {
  /** The page as rendered, for rows from before previews were kept as their source. */
  html: string | null;
  source: string | null;
  width: number;
  height: number;
  /** What those older rows rendered their snapshot from. */
  snapshot_source: { format_id: { id: string }; manifest: CreativeManifest; macros: Record<string, string> } | null;
  png: Uint8Array | null;
  expires_at: Date;
}

/** Stores a call's previews in one statement, however many variants and requests it had. */
export async function insertPreviews(db: Queryable, principal: string, previews: readonly NewPreview[], now: Date, expiresAt: Date): Promise<void> {
  if (previews.length === 0) return;
  const values: unknown[] = [principal, now, expiresAt];
  const rows = previews.map((p) => {
    values.push(p.key, JSON.stringify(p.source), p.width, p.height, p.png);
    const at = values.length - 5;
    return `($${at + 1}, $1, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}::bytea, $2, $3)`;
  });
  await db.query(`insert into creative_previews (preview_key, principal, source, width, height, png, created_at, expires_at) values ${rows.join(', ')}`, values);
}

export async function findPreview(db: Queryable, key: string): Promise<PreviewRow | undefined> {
  const [row] = await db.query<PreviewRow>('select html, source, width, height, snapshot_source, png, expires_at from creative_previews where preview_key = $1', [key]);
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
