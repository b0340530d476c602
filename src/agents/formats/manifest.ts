import type { FormatId } from './format.ts';

/**
 * core/creative-manifest.json as the creative agent reads it: the format and its assets by the
 * format's asset ids. Assets are the core/assets/* shapes; only what rendering and checking read
 * is typed, the rest passes through.
 */
export interface CreativeManifest {
  format_id: FormatId;
  assets: Record<string, ManifestAsset>;
  [field: string]: unknown;
}

/** One asset of a manifest (core/assets/asset-union.json). */
export interface ManifestAsset {
  asset_type?: string;
  /** image, video, audio, url, and VAST/DAAST by reference. */
  url?: string;
  /** text, html, javascript, css, markdown, and VAST/DAAST inline. */
  content?: string;
  width?: number;
  height?: number;
  duration_ms?: number;
  [field: string]: unknown;
}
