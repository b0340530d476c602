import type { Format } from '../../formats/index.ts';
import type { CreativeManifest } from '../../formats/index.ts';
import type { Kind } from './assets.ts';

export interface Size {
  width: number;
  height: number;
}

export interface PreviewSize extends Size {
  /** A size the format fixes, which an image is stretched to as ad servers do; else it is cropped to fill. */
  fixed: boolean;
}

/** No preview is drawn larger: a DOOH screen is 1920x1080, an 8K one would be a 130 MB bitmap. */
export const maxSide = 4096;

const defaults: Record<Kind, Size> = {
  video: { width: 640, height: 360 },
  audio: { width: 400, height: 100 },
  html5: { width: 300, height: 250 },
  native: { width: 300, height: 0 },
  image: { width: 300, height: 250 },
  frame: { width: 300, height: 250 },
};

/**
 * The size of the preview's box. A fixed render (width and height given and not responsive) and
 * a format whose size comes from its format_id take that size, whatever was asked. A responsive
 * one takes the size asked for, kept within the render's min/max bounds; without one, its minimum
 * size (height from its aspect ratio when it has one), else the kind's usual size; a native card
 * without a height takes the height its content needs (`naturalHeight`).
 */
export function previewSize(
  format: Format,
  manifest: CreativeManifest,
  kind: Kind,
  asked: Size | undefined,
  naturalHeight: (width: number) => number,
): PreviewSize {
  const render = format.renders?.find((r) => r.role === 'primary') ?? format.renders?.[0];
  const dims = render?.dimensions;
  if (render?.parameters_from_format_id) {
    const { width, height } = manifest.format_id ?? format.format_id;
    if (width && height) return { ...bounded({ width, height }), fixed: true };
  }
  if (dims?.width && dims.height && !dims.responsive?.width && !dims.responsive?.height)
    return { ...bounded({ width: dims.width, height: dims.height }), fixed: true };
  const ratio = aspectRatio(dims?.aspect_ratio);
  let width = validSide(asked?.width) ?? dims?.width ?? dims?.min_width ?? defaults[kind].width;
  width = clamp(width, dims?.min_width, dims?.max_width);
  let height =
    validSide(asked?.height) ??
    dims?.height ??
    (ratio ? Math.round(width / ratio) : dims?.min_height) ??
    (defaults[kind].height || naturalHeight(width));
  height = clamp(height, dims?.min_height, dims?.max_height);
  return { ...bounded({ width, height }), fixed: false };
}

function aspectRatio(text: string | undefined): number | undefined {
  const match = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(text ?? '');
  const ratio = match ? Number(match[1]) / Number(match[2]) : NaN;
  return Number.isFinite(ratio) && ratio > 0 ? ratio : undefined;
}

const validSide = (n: number | undefined) =>
  typeof n === 'number' && Number.isFinite(n) && n >= 1 ? Math.round(n) : undefined;

const clamp = (n: number, min: number | undefined, max: number | undefined) =>
  Math.min(Math.max(n, min ?? 1), max ?? Infinity);

const bounded = ({ width, height }: Size): Size => ({
  width: Math.max(1, Math.min(maxSide, Math.round(width))),
  height: Math.max(1, Math.min(maxSide, Math.round(height))),
});
