import type { CreativeManifest, Format } from '../../formats/index.ts';
import { readAdTag } from '../render/vast.ts';

/** Wrapper hops followed before giving up (VAST's own guidance is a handful). */
const maxHops = 4;

/**
 * The manifest with its VAST and DAAST tags carried inline: a tag given by URL, and a wrapper's
 * chain, fetched (`fetchText`, the SSRF-safe client) until a document with media files, so the
 * preview plays the ad's own spot rather than naming a tag URL. A tag that cannot be fetched stays
 * as it was, and the preview names its URL.
 */
export async function inlineAdTags(
  format: Format,
  manifest: CreativeManifest,
  fetchText: (url: string) => Promise<string | undefined>,
): Promise<CreativeManifest> {
  const tagIds = (format.assets ?? []).flatMap((a) =>
    a.item_type === 'individual' && (a.asset_type === 'vast' || a.asset_type === 'daast') ? [a.asset_id] : [],
  );
  let assets: CreativeManifest['assets'] | undefined;
  for (const id of tagIds) {
    const asset = manifest.assets[id];
    if (!asset) continue;
    let xml = typeof asset.content === 'string' && asset.delivery_type !== 'url' ? asset.content : undefined;
    let next = xml === undefined ? asset.url : readAdTag(xml).wrapperUrl;
    for (let hop = 0; hop < maxHops && typeof next === 'string'; hop++) {
      const fetched = await fetchText(next);
      if (fetched === undefined) break;
      xml = fetched;
      const read = readAdTag(xml);
      next = read.mediaFiles.length > 0 ? undefined : read.wrapperUrl;
    }
    if (xml !== undefined && xml !== asset.content)
      (assets ??= { ...manifest.assets })[id] = { ...asset, content: xml, delivery_type: 'inline' };
  }
  return assets ? { ...manifest, assets } : manifest;
}
