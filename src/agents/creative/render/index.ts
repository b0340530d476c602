/**
 * The creative agent's renderer: a creative as a standalone, sandbox-safe HTML page, and display
 * creatives as a PNG snapshot. Pure but for the images a snapshot loads through the caller's loader.
 */
import type { Format } from '../../formats/index.ts';
import type { CreativeManifest } from '../../formats/index.ts';
import { readCreative, sizeOf, type RenderOptions } from './creative.ts';
import { pageHtml } from './html.ts';
import { loadFontMetrics } from './fonts.ts';
import { embed, snapshotPng, type ImageLoader } from './png.ts';
import type { Embedded } from './svg.ts';

export type { RenderOptions } from './creative.ts';
export type { EmbeddedImage, ImageLoader } from './png.ts';
export { embedImage, svgPng } from './png.ts';
export { creativeSandbox } from './html.ts';

export interface RenderedHtml {
  html: string;
  width: number;
  height: number;
}

export interface PngOptions extends RenderOptions {
  loadImage: ImageLoader;
}

export interface Renderer {
  renderHtml(format: Format, manifest: CreativeManifest, options?: RenderOptions): RenderedHtml;
  /** The page's width and height, without building it (a hosted preview's page is built when opened). */
  measure(format: Format, manifest: CreativeManifest, options?: RenderOptions): { width: number; height: number };
  renderPng(format: Format, manifest: CreativeManifest, options: PngOptions): Promise<Uint8Array>;
}

/** Thrown by renderPng for a creative with no still picture (video, audio): the caller answers without a snapshot. */
export class NoSnapshotError extends Error {
  readonly code = 'NO_SNAPSHOT';
  constructor(format: Format) {
    super(
      `Format ${format.format_id.id} is not a display format: it has no PNG snapshot (its preview is the HTML page).`,
    );
    this.name = 'NoSnapshotError';
  }
}

/** Whether renderPng draws this format (display and DOOH: what shows as a still image). */
export const hasSnapshot = (format: Format): boolean => format.type !== 'video' && format.type !== 'audio';

/**
 * A renderer. The fonts' metrics are read once per process, by the first renderer made (resvg
 * reads the font files per snapshot, which costs it 0.1 ms). What one renderer adds is sharing:
 * snapshots rendered at the same time (a batch) that show the same image load it once. Nothing is
 * kept once a load settles, so an image changed at its URL shows at the next render.
 */
export function createRenderer(): Renderer {
  loadFontMetrics();
  const loading = new Map<string, { loader: ImageLoader; embedded: Promise<Embedded> }>();
  const load = (url: string, loader: ImageLoader): Promise<Embedded> => {
    const pending = loading.get(url);
    if (pending?.loader === loader) return pending.embedded;
    const embedded = embed(url, loader).finally(() => {
      if (loading.get(url)?.embedded === embedded) loading.delete(url);
    });
    loading.set(url, { loader, embedded });
    return embedded;
  };
  return {
    renderHtml(format, manifest, options = {}) {
      const creative = readCreative(format, manifest, options);
      return { html: pageHtml(creative), width: creative.width, height: creative.height };
    },
    measure: sizeOf,
    async renderPng(format, manifest, options) {
      const creative = readCreative(format, manifest, options);
      if (!hasSnapshot(format) || creative.kind === 'video' || creative.kind === 'audio')
        throw new NoSnapshotError(format);
      return snapshotPng(creative, async (ref) => (ref ? load(ref.url, options.loadImage) : undefined));
    },
  };
}

let shared: Renderer | undefined;

/** The page of a creative at its format's size (a responsive format: `size`, or its default). */
export const renderHtml = (format: Format, manifest: CreativeManifest, options: RenderOptions = {}): RenderedHtml =>
  (shared ??= createRenderer()).renderHtml(format, manifest, options);

/** A PNG of exactly the page's size; throws NoSnapshotError for video and audio. Images that cannot be loaded draw as placeholders. */
export const renderPng = (format: Format, manifest: CreativeManifest, options: PngOptions): Promise<Uint8Array> =>
  (shared ??= createRenderer()).renderPng(format, manifest, options);
