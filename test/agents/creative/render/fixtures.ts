import { Resvg } from '@resvg/resvg-js';
import { decode } from 'fast-png';
import { standardFormats, type Asset, type Format } from '../../../../src/agents/formats/index.ts';
import type { CreativeManifest } from '../../../../src/agents/formats/index.ts';

export const agentUrl = 'https://creative.test/mcp';

const standard = standardFormats(agentUrl);

export function format(id: string): Format {
  const found = standard.find((f) => f.format_id.id === id);
  if (!found) throw new Error(`no standard format ${id}`);
  return found;
}

const individual = (asset_id: string, asset_type: string, asset_role: string, required = true): Asset => ({
  item_type: 'individual',
  asset_id,
  asset_type,
  asset_role,
  required,
});

const clickUrl: Asset = { ...individual('click_url', 'url', 'clickthrough'), requirements: { role: 'clickthrough' } };

/** Formats the standard set may not have yet, shaped as core/format.json describes them. */
export const html5Format: Format = {
  format_id: { agent_url: agentUrl, id: 'html5_300x250' },
  name: 'HTML5 Medium Rectangle 300x250',
  type: 'display',
  renders: [
    {
      role: 'primary',
      dimensions: { width: 300, height: 250, unit: 'px', responsive: { width: false, height: false } },
    },
  ],
  assets: [
    individual('creative_html', 'html', 'hero_html'),
    individual('backup_image', 'image', 'backup_image', false),
    clickUrl,
  ],
};

export const vastFormat: Format = {
  format_id: { agent_url: agentUrl, id: 'video_vast_30s' },
  name: 'VAST Video 30s',
  type: 'video',
  renders: [
    {
      role: 'primary',
      dimensions: { min_width: 640, min_height: 360, aspect_ratio: '16:9', responsive: { width: true, height: true } },
    },
  ],
  assets: [individual('vast_tag', 'vast', 'hero_video'), { ...clickUrl, required: false }],
};

export const daastFormat: Format = {
  format_id: { agent_url: agentUrl, id: 'audio_daast_30s' },
  name: 'DAAST Audio 30s',
  type: 'audio',
  assets: [individual('daast_tag', 'daast', 'hero_audio')],
};

export const manifest = (f: Format, assets: CreativeManifest['assets']): CreativeManifest => ({
  format_id: f.format_id,
  assets,
});

/** A PNG of one colour, drawn by resvg itself. */
export function solidPng(width: number, height: number, color: string): Uint8Array {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="${width}" height="${height}" fill="${color}"/></svg>`;
  return new Uint8Array(new Resvg(svg, { font: { loadSystemFonts: false } }).render().asPng());
}

export function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  if (String.fromCharCode(...png.subarray(12, 16)) !== 'IHDR') throw new Error('no IHDR chunk first');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** The RGBA pixel at (x, y). */
export function pixel(png: Uint8Array, x: number, y: number): [number, number, number, number] {
  const image = decode(png);
  const at = (y * image.width + x) * image.channels;
  const rgba = [...image.data.slice(at, at + image.channels)];
  return (image.channels === 4 ? rgba : [...rgba, 255]) as [number, number, number, number];
}

/** Counts the pixels of a colour within `tolerance` on each channel. */
export function countColor(png: Uint8Array, [r, g, b]: [number, number, number], tolerance = 8): number {
  const image = decode(png);
  let n = 0;
  for (let i = 0; i < image.data.length; i += image.channels) {
    if (
      Math.abs(image.data[i]! - r) <= tolerance &&
      Math.abs(image.data[i + 1]! - g) <= tolerance &&
      Math.abs(image.data[i + 2]! - b) <= tolerance
    )
      n++;
  }
  return n;
}

export const loaderOf =
  (images: Record<string, Uint8Array>, calls: string[] = []) =>
  async (url: string) => {
    calls.push(url);
    const bytes = images[url];
    return bytes ? { bytes, contentType: 'image/png' } : undefined;
  };
