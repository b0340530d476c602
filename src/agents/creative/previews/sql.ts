import { randomBytes } from 'node:crypto';
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
  source: PreviewSource;
  width: number;
  height: number;
  /** The PNG snapshot when the call rendered it (quality production). */
  png: Uint8Array | null;
}

/**
 * The previews one call hosts, stored together as one row when the call ends: each is served at
 * `<set key>-<position>`. Variants of one creative share its manifest object, which the set keeps
 * once.
 */
export class PreviewSet {
  readonly key = randomBytes(16).toString('hex');
  readonly previews: NewPreview[] = [];

  /** Adds a preview and answers its key. */
  add(preview: NewPreview): string {
    return `${this.key}-${this.previews.push(preview) - 1}`;
  }

  /** Forgets the previews added after the first `size` (a batch request that failed part way). */
  truncate(size: number): void {
    this.previews.length = size;
  }
}

/** A hosted preview as it is served. */
export interface StoredPreview {
  /** What it renders from; absent for a preview recorded, before sources were kept, as its page only. */
  source?: PreviewSource;
  /** The page as recorded, for previews from before pages were rendered when opened. */
  html?: string;
  width: number;
  height: number;
  png: Uint8Array | null;
  expires_at: Date;
}

/** A set's `previews` column. */
interface SetDocument {
  manifests: CreativeManifest[];
  previews: Array<{
    format?: string;
    manifest?: number;
    macros?: Record<string, string>;
    html?: string;
    width: number;
    height: number;
  }>;
}

/** Stores a call's previews in one row, however many variants and requests it had, and the snapshots it rendered. */
export async function insertPreviews(
  db: Queryable,
  principal: string,
  set: PreviewSet,
  now: Date,
  expiresAt: Date,
): Promise<void> {
  if (set.previews.length === 0) return;
  const manifests = new Map<CreativeManifest, number>();
  const previews = set.previews.map(({ source, width, height }) => {
    let manifest = manifests.get(source.manifest);
    if (manifest === undefined) manifests.set(source.manifest, (manifest = manifests.size));
    return { format: source.format, manifest, macros: source.macros, width, height };
  });
  const document: SetDocument = { manifests: [...manifests.keys()], previews };
  await db.query(
    'insert into creative_preview_sets (set_key, principal, previews, created_at, expires_at) values ($1, $2, $3, $4, $5)',
    [set.key, principal, JSON.stringify(document), now, expiresAt],
  );
  const values: unknown[] = [set.key];
  const rows: string[] = [];
  for (const [position, { png }] of set.previews.entries()) {
    if (!png) continue;
    values.push(position, png);
    rows.push(`($1, $${values.length - 1}, $${values.length}::bytea)`);
  }
  if (rows.length > 0)
    await db.query(`insert into creative_preview_snapshots (set_key, position, png) values ${rows.join(', ')}`, values);
}

/** A preview by the key it is served at; undefined when there is none. */
export async function findPreview(db: Queryable, key: string): Promise<StoredPreview | undefined> {
  const { set, position } = located(key);
  const [row] = await db.query<{ previews: string; png: Uint8Array | null; expires_at: Date }>(
    'select s.previews, s.expires_at, p.png from creative_preview_sets s left join creative_preview_snapshots p on p.set_key = s.set_key and p.position = $2 where s.set_key = $1',
    [set, position],
  );
  if (!row) return undefined;
  const document = JSON.parse(row.previews) as SetDocument;
  const preview = document.previews[position];
  if (!preview) return undefined;
  const manifest = preview.manifest === undefined ? undefined : document.manifests[preview.manifest];
  return {
    ...(preview.format && manifest
      ? { source: { format: preview.format, manifest, macros: preview.macros ?? {} } }
      : {}),
    ...(preview.html !== undefined ? { html: preview.html } : {}),
    width: preview.width,
    height: preview.height,
    png: row.png,
    expires_at: row.expires_at,
  };
}

/** Keeps a snapshot rendered at its first fetch (the first writer wins; they are the same bytes). */
export async function storeSnapshot(db: Queryable, key: string, png: Uint8Array): Promise<void> {
  const { set, position } = located(key);
  await db.query(
    'insert into creative_preview_snapshots (set_key, position, png) values ($1, $2, $3) on conflict do nothing',
    [set, position, png],
  );
}

/** Forgets previews expired before `before` (their snapshots with them). */
export async function pruneExpired(db: Queryable, before: Date): Promise<number> {
  const rows = await db.query<{ n: number }>(
    'with gone as (delete from creative_preview_sets where expires_at < $1 returning 1) select count(*)::int as n from gone',
    [before],
  );
  return rows[0]?.n ?? 0;
}

/** `<set>-<position>`; a key from before sets names a set of one. */
function located(key: string): { set: string; position: number } {
  const match = /^([0-9a-f]{32})-(\d{1,5})$/.exec(key);
  return match ? { set: match[1]!, position: Number(match[2]) } : { set: key, position: 0 };
}
