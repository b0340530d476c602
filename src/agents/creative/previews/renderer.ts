import { FetchError } from '../../../net/fetch-error.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import type { Format } from '../../formats/index.ts';
import type { CreativeManifest } from '../../formats/index.ts';
import { inlineAdTags } from './ad-tags.ts';
import { createRenderer, embedImage, type EmbeddedImage, type ImageLoader } from '../render/index.ts';

export interface RenderOptions {
  macros?: Record<string, string>;
  size?: { width: number; height: number };
}

/** What previews and builds render with: the page, and a display format's PNG snapshot. */
export interface Renderer {
  renderHtml(
    format: Format,
    manifest: CreativeManifest,
    options: RenderOptions,
  ): { html: string; width: number; height: number };
  measure(format: Format, manifest: CreativeManifest, options: RenderOptions): { width: number; height: number };
  renderPng(format: Format, manifest: CreativeManifest, options: RenderOptions): Promise<Uint8Array>;
  /** An image a composition draws (a brand's logo, a picture to re-lay), loaded as snapshots load theirs; undefined when it cannot be. */
  embedImage(url: string): Promise<EmbeddedImage | undefined>;
  /** The manifest with its VAST/DAAST tags fetched and carried inline (unchanged without a fetcher). */
  inlineAdTags(format: Format, manifest: CreativeManifest): Promise<CreativeManifest>;
}

/** Images this server holds itself (its generated assets), read without a request to itself. */
export type LocalImages = (url: string) => ReturnType<ImageLoader>;

/** Formats a PNG snapshot is made of: what shows as a still image. */
export const hasSnapshot = (format: Format): boolean => format.type === 'display' || format.type === 'dooh';

const imageBytes = 5 * 1024 * 1024;
const tagBytes = 1024 * 1024;

/**
 * The renderer with its images fetched through the SSRF-safe client: a manifest's image URLs are
 * the buyer's, so they are fetched as any user-supplied URL is. An image that cannot be fetched
 * renders as a placeholder. `local` answers the URLs of images this server holds first: fetched,
 * they would be refused wherever the deployment's own address is private. Without a fetcher, only
 * `local` images load (inside a transaction, where no other host may be waited on).
 */
export function rendererWith(fetcher: SafeFetch | undefined, local?: LocalImages): Renderer {
  const renderer = createRenderer();
  const loadImage: ImageLoader = async (url: string) => {
    const held = await local?.(url);
    if (held || !fetcher) return held;
    try {
      const res = await fetcher.fetch(url, { maxBytes: imageBytes, timeoutMs: 5000 });
      const contentType = res.headers['content-type']?.split(';')[0]?.trim() ?? '';
      return res.status === 200 && contentType.startsWith('image/') ? { bytes: res.body, contentType } : undefined;
    } catch (err) {
      if (err instanceof FetchError) return undefined;
      throw err;
    }
  };
  const fetchText = async (url: string) => {
    if (!fetcher) return undefined;
    try {
      const res = await fetcher.fetch(url, { maxBytes: tagBytes, timeoutMs: 5000 });
      return res.status === 200 ? res.text() : undefined;
    } catch (err) {
      if (err instanceof FetchError) return undefined;
      throw err;
    }
  };
  return {
    renderHtml: (format, manifest, options) => renderer.renderHtml(format, manifest, options),
    measure: (format, manifest, options) => renderer.measure(format, manifest, options),
    renderPng: (format, manifest, options) => renderer.renderPng(format, manifest, { ...options, loadImage }),
    embedImage: (url) => embedImage(url, loadImage),
    inlineAdTags: (format, manifest) => inlineAdTags(format, manifest, fetchText),
  };
}
