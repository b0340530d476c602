import type { Database } from '../../../db/database.ts';
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
    images: async (url) => {
      const asset = db && parseAssetUrl(assetsUrl(), url);
      const row = asset && db && (await findAsset(db, asset.sha256));
      return row ? { bytes: row.bytes, contentType: row.content_type } : undefined;
    },
    use(database) {
      db = database;
    },
  };
}
