import type { SafeFetch } from '../../net/safe-fetch.ts';
import { listCreativeFormatsTask } from '../formats/index.ts';
import type { Tenant, TenantMount } from '../runtime/index.ts';
import type { BrandLookup } from './build/known-brand.ts';
import { creativeHosting } from './hosting.ts';
import { buildCreativeTask } from './tasks/build-creative.ts';
import { previewCreativeTask } from './tasks/preview-creative.ts';

export interface CreativeBuilderOptions extends TenantMount {
  /** Where the creative agent whose formats it builds is mounted: its format ids name `<base><formatsPath>/mcp`. */
  formatsPath?: string;
  /**
   * Where the generated assets are served: `<base><assetsPath>/<sha256>.png`; by default under the
   * creative agent's path, where that agent reads them for its previews' snapshots.
   */
  assetsPath?: string;
  /** Serve the generated assets at `assetsPath` (default); not when the creative agent mounted there serves them. */
  servesAssets?: boolean;
  /** What the registry knows of a referenced brand, which a build draws (name, site, colours, logos). */
  brands?: BrandLookup;
  /** Fetches the images a build draws and a preview snapshots: the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How long a hosted preview lives (default a day). */
  previewTtlSeconds?: number;
}

/**
 * The creative builder (the test deployment's `/creative-builder`):
 * build_creative, generating a creative from a brief alone or from promoted offerings, or
 * transforming one into other formats; list_creative_formats, the formats it builds (the creative
 * agent's, named by that agent's URL); and preview_creative. It serves what it generates unless
 * told the creative agent does.
 */
export function creativeBuilderAgent({
  base,
  path = '/creative-builder',
  formatsPath = '/creative',
  assetsPath = '/creative/assets',
  servesAssets = true,
  brands,
  credentials,
  fetcher,
  previewTtlSeconds = 86_400,
}: CreativeBuilderOptions): Tenant {
  const { agentUrl, formats, assetsUrl, preview, renderer, tenant } = creativeHosting({
    base,
    path,
    formatsPath,
    assetsPath,
    servesAssets,
    fetcher,
    previewTtlSeconds,
    credentials,
    offers: { library: false, generation: true },
  });
  return {
    ...tenant,
    name: 'creative-builder',
    path,
    description:
      'Creative builder: generates creatives in the standard formats from a brand and its offerings, adapts existing ones to other formats, and previews them.',
    // creative-generative is not claimed: its storyboards sync catalogs (sync_catalogs), which it does not serve.
    tasks: [
      listCreativeFormatsTask({ formats, protocol: 'creative' }),
      buildCreativeTask({ formats, agentUrl, assetsUrl, fetcher, preview, fromBrief: true, brands }),
      previewCreativeTask({ ...preview, renderer }),
    ],
  };
}
