import { AgentError } from '../../../protocol/errors.ts';
import type { Queryable } from '../../../db/database.ts';
import type { CreativeManifest, Format } from '../../formats/index.ts';
import { errorObject, type AgentTask } from '../../runtime/index.ts';
import { assetUrl } from '../build/asset-routes.ts';
import { storeAsset } from '../build/asset-store.ts';
import type { BuildTools } from '../build/build-format.ts';
import { insertPreviews, PreviewSet } from '../previews/sql.ts';
import { svgPng, type EmbeddedImage } from '../render/index.ts';
import type { BuildArgs } from './build-sources.ts';
import { previewsOf, principalOf, type PreviewSettings } from './preview-creative.ts';

/** Where build_creative's output goes: its drawn assets stored and served, and the previews include_preview asks for. */

export function buildTools(
  embed: (url: string) => Promise<EmbeddedImage | undefined>,
  db: Queryable,
  prefix: string,
  now: Date,
  fresh: Map<string, Uint8Array>,
): BuildTools {
  const images = new Map<string, Promise<EmbeddedImage | undefined>>();
  return {
    image(url) {
      let image = images.get(url);
      if (!image) images.set(url, (image = embed(url)));
      return image;
    },
    draw: svgPng,
    async store(png) {
      const url = assetUrl(prefix, await storeAsset(db, png, 'png', now));
      fresh.set(url, png);
      return url;
    },
  };
}

/**
 * The preview include_preview asks for, as preview_creative makes it: one per preview input for
 * a single format, one default preview per format (with its format_id) for several. A preview
 * that fails leaves the build standing, with preview_error.
 */
export async function previewOf(
  args: BuildArgs,
  manifests: CreativeManifest[],
  targets: Format[],
  settings: PreviewSettings,
  ctx: Parameters<AgentTask['handler']>[1],
): Promise<Record<string, unknown>> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + settings.ttlSeconds * 1000);
  const stored = new PreviewSet();
  const options = {
    output_format: args.preview_output_format ?? 'url',
    quality: args.preview_quality ?? 'draft',
  } as const;
  try {
    const previews: Array<Record<string, unknown>> = [];
    if (args.target_format_ids) {
      for (const [i, manifest] of manifests.entries()) {
        const [first] = await previewsOf({ creative_manifest: manifest, ...options }, '', settings, stored);
        previews.push({ ...first, format_id: targets[i]!.format_id });
      }
    } else {
      previews.push(
        ...(await previewsOf(
          {
            creative_manifest: manifests[0]!,
            ...options,
            ...(args.preview_inputs ? { inputs: args.preview_inputs } : {}),
          },
          '',
          settings,
          stored,
        )),
      );
    }
    await insertPreviews(ctx.db, principalOf(ctx), stored, now, expiresAt);
    return { preview: { previews, expires_at: expiresAt.toISOString() } };
  } catch (err) {
    if (!(err instanceof AgentError)) throw err;
    return { preview_error: errorObject(err) };
  }
}
