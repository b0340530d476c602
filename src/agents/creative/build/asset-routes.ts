import type { FastifyInstance } from 'fastify';
import type { Database } from '../../../db/database.ts';
import { ApError } from '../../../protocol/errors.ts';
import { pathUnder } from '../../formats/index.ts';
import { assetTypes, findAsset, type AssetExtension, type StoredAsset } from './asset-store.ts';

const fileForm = /^([0-9a-f]{64})\.([a-z0-9]+)$/;

/** A year: the longest lifetime caches honour; the bytes behind a digest never change. */
const forever = 'public, max-age=31536000, immutable';

/** The URL an asset is served at: `<base><path>/<sha256>.<ext>`. */
export const assetUrl = (prefix: string, asset: StoredAsset): string => `${prefix}/${asset.sha256}.${asset.extension}`;

/** The digest and extension of one of our asset URLs under `prefix`, or undefined for any other URL. */
export function parseAssetUrl(prefix: string, url: string): StoredAsset | undefined {
  const file = pathUnder(prefix, url);
  if (file === undefined) return undefined;
  const match = fileForm.exec(file);
  return match && Object.hasOwn(assetTypes, match[2]!)
    ? { sha256: match[1]!, extension: match[2] as AssetExtension }
    : undefined;
}

/**
 * The generated assets build_creative's manifests name, public (ad servers and players fetch them
 * without credentials) at `<path>/<sha256>.<ext>`: immutable, so cached for good. An unknown
 * digest, or one asked with another extension than its content's, is 404.
 */
export function assetRoutes(app: FastifyInstance, { db, path }: { db: Database; path: string }): void {
  app.get<{ Params: { file: string } }>(
    `${path}/:file`,
    {
      schema: {
        summary: 'A creative asset build_creative generated (by the SHA-256 of its bytes)',
        tags: ['Agents'],
        params: { type: 'object', properties: { file: { type: 'string', maxLength: 80 } } },
      },
    },
    async (request, reply) => {
      const match = fileForm.exec(request.params.file);
      const extension = match?.[2] as AssetExtension | undefined;
      const row =
        match && extension && Object.hasOwn(assetTypes, extension) ? await findAsset(db, match[1]!) : undefined;
      if (!row || row.content_type !== assetTypes[extension!]) throw new ApError('not_found', 'No such asset.');
      const etag = `"${match![1]}"`;
      reply.header('cache-control', forever).header('etag', etag).header('x-content-type-options', 'nosniff');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.type(row.content_type).send(Buffer.from(row.bytes));
    },
  );
}
