import { deepFreeze } from '../../catalog-files/index.ts';
import type { Format } from '../format.ts';
import { audioFormats } from './audio.ts';
import { displayFormats } from './display.ts';
import { doohFormats } from './dooh.ts';
import { videoFormats } from './video.ts';

/** The standard formats, one family a file, in the order the catalog lists them. */
const definitions = [...displayFormats, ...videoFormats, ...audioFormats, ...doohFormats];

// The few creative agent URLs a deployment names (one per base URL it has answered under).
const shared = new Map<string, readonly Format[]>();

/**
 * The standard formats at `creativeAgentUrl`, made once per URL and frozen: what the agents'
 * calls read (building them afresh, deep copies included, was most of a preview's cost).
 */
export function standardFormatsAt(creativeAgentUrl: string): readonly Format[] {
  let formats = shared.get(creativeAgentUrl);
  if (!formats) {
    if (shared.size >= 8) shared.clear();
    shared.set(creativeAgentUrl, (formats = deepFreeze(standardFormats(creativeAgentUrl))));
  }
  return formats;
}

/**
 * The standard formats, defined by the creative agent at `creativeAgentUrl` (the URL in each
 * format_id). Each call answers fresh objects, so a caller may change what it got.
 */
export function standardFormats(creativeAgentUrl: string): Format[] {
  return definitions.map(({ id, ...definition }) => {
    const format: Format = { format_id: { agent_url: creativeAgentUrl, id }, ...structuredClone(definition) };
    format.assets_required = definition.assets.filter((asset) => asset.required).map((asset) => structuredClone(asset));
    return format;
  });
}
