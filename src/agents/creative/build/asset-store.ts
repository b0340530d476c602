import { createHash } from 'node:crypto';
import type { Queryable } from '../../../db/database.ts';

/** What the asset route serves, by the extension its URL ends with. */
export const assetTypes = { png: 'image/png' } as const;

export type AssetExtension = keyof typeof assetTypes;

export interface StoredAsset {
  sha256: string;
  extension: AssetExtension;
}

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** Keeps the bytes under their digest; bytes already kept (the same build again) are left as they are. */
export async function storeAsset(
  db: Queryable,
  bytes: Uint8Array,
  extension: AssetExtension,
  now: Date,
): Promise<StoredAsset> {
  const sha256 = sha256Of(bytes);
  await db.query(
    'insert into creative_assets (sha256, content_type, bytes, created_at) values ($1, $2, $3, $4) on conflict (sha256) do nothing',
    [sha256, assetTypes[extension], bytes, now],
  );
  return { sha256, extension };
}

export async function findAsset(
  db: Queryable,
  sha256: string,
): Promise<{ content_type: string; bytes: Uint8Array } | undefined> {
  const [row] = await db.query<{ content_type: string; bytes: Uint8Array }>(
    'select content_type, bytes from creative_assets where sha256 = $1',
    [sha256],
  );
  return row;
}
