import type { Database, Queryable } from '../../../db/database.ts';
import type { LocalImages } from '../previews/renderer.ts';
import { parseAssetUrl } from './asset-routes.ts';
import { findAsset } from './asset-store.ts';

/**
 * The generated assets as a renderer's local images: a URL under `assetsUrl` is read from the
 * database rather than fetched, since the SSRF-safe client refuses this server's own address
 * wherever it is private (a loopback or in-cluster deployment). The database is known once the
 * tenant is mounted (`use`); before that, nothing is local.
 */
export function localAssets(assetsUrl: () => string): { images: LocalImages; use(db: Database): void } {
  let db: Database | undefined;
  return {
    images: async (url) => (db ? assetImage(db, assetsUrl(), url) : undefined),
    use(database) {
      db = database;
    },
  };
}

/** The generated asset `url` names under `assetsUrl`, read on `db` (a call's transaction, or the database); undefined for any other URL. */
export async function assetImage(db: Queryable, assetsUrl: string, url: string): ReturnType<LocalImages> {
  const asset = parseAssetUrl(assetsUrl, url);
  const row = asset && (await findAsset(db, asset.sha256));
  return row ? { bytes: row.bytes, contentType: row.content_type } : undefined;
}
