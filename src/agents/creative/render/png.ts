import { renderAsync, type ResvgRenderOptions } from '@resvg/resvg-js';
import type { Creative, ImageRef } from './creative.ts';
import { fontFamily, fontFiles } from './fonts.ts';
import { rasterOf } from './raster.ts';
import { snapshotSvg, type Embedded, type SnapshotImages } from './svg.ts';

export type ImageLoader = (url: string) => Promise<{ bytes: Uint8Array; contentType: string } | undefined>;

/**
 * Fonts from the package's files and none of the system's, so a snapshot is the same on every
 * machine. resvg reads them per render; that costs about 0.1 ms (measured), less than keeping a
 * font database, which resvg-js has no way to share.
 */
const resvgOptions: ResvgRenderOptions = {
  font: {
    loadSystemFonts: false,
    fontFiles: [fontFiles.regular, fontFiles.bold],
    defaultFontFamily: fontFamily,
    sansSerifFamily: fontFamily,
  },
  logLevel: 'off',
};

/** The snapshot's PNG: its images loaded at once, then drawn off the event loop in resvg's thread pool. */
export async function snapshotPng(
  creative: Creative,
  load: (ref: ImageRef | undefined) => Promise<Embedded>,
): Promise<Uint8Array> {
  const wanted: Array<keyof SnapshotImages> =
    creative.kind === 'native'
      ? ['image', 'logo']
      : creative.kind === 'html5'
        ? ['backup']
        : creative.kind === 'image'
          ? ['image']
          : [];
  const loaded = await Promise.all(wanted.map((name) => load(creative[name])));
  const images: SnapshotImages = Object.fromEntries(wanted.map((name, i) => [name, loaded[i]]));
  return svgPng(snapshotSvg(creative, images));
}

/** Any SVG this renderer composes, as a PNG of its own size, drawn off the event loop. */
export async function svgPng(svg: string): Promise<Uint8Array> {
  const rendered = await renderAsync(svg, resvgOptions);
  return new Uint8Array(rendered.asPng());
}

/**
 * An image as a data: URI, or undefined when it cannot be drawn: not loaded, loader failed, or
 * not a PNG, JPEG or GIF of a sane size. A data: image in the manifest is used as it is, loading
 * nothing.
 */
export async function embed(url: string, loadImage: ImageLoader): Promise<Embedded> {
  return (await embedImage(url, loadImage))?.href;
}

/** An embedded image with its pixel size, which a composition lays out by. */
export interface EmbeddedImage {
  href: string;
  width: number;
  height: number;
}

/** `embed`, answering the image's size too. */
export async function embedImage(url: string, loadImage: ImageLoader): Promise<EmbeddedImage | undefined> {
  let bytes: Uint8Array | undefined;
  if (url.startsWith('data:')) bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
  else {
    try {
      bytes = (await loadImage(url))?.bytes;
    } catch {
      bytes = undefined;
    }
  }
  const raster = bytes && rasterOf(bytes);
  if (!raster || !bytes) return undefined;
  return {
    href: `data:${raster.mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64')}`,
    width: raster.width,
    height: raster.height,
  };
}
