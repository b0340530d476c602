import type { SafeFetch } from '../../net/safe-fetch.ts';
import { listCreativeFormatsTask } from '../formats/index.ts';
import type { Tenant, TenantMount } from '../runtime/index.ts';
import type { BrandLookup } from './build/known-brand.ts';
import { creativeHosting } from './hosting.ts';
import { buildCreativeTask } from './tasks/build-creative.ts';
import { listCreativesTask } from './tasks/list-creatives.ts';
import { previewCreativeTask } from './tasks/preview-creative.ts';
import { syncCreativesTask } from './tasks/sync-creatives.ts';

export type { CreativeManifest, ManifestAsset } from '../formats/index.ts';
export { creativeBuilderAgent, type CreativeBuilderOptions } from './builder.ts';
export type { BrandLookup, KnownBrand } from './build/known-brand.ts';
// The build task itself, for a seller that builds the creative agent's formats (sales-catalog-driven).
export { buildCreativeTask } from './tasks/build-creative.ts';

export interface CreativeAgentOptions extends TenantMount {
  /** Fetches the images a manifest names (for PNG snapshots): the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How long a hosted preview lives (default a day). */
  previewTtlSeconds?: number;
  /** What the registry knows of a referenced brand, which a build draws (name, site, colours, logos). */
  brands?: BrandLookup;
  /** The generative builder's MCP URL, where a build from a brief alone is pointed. */
  generator?: () => string;
}

/**
 * The creative agent (agent-tasks spec, creative tasks; specialism creative-template): defines the
 * standard formats (the ones the sales agent's products take), builds creatives in them from their
 * templates and a manifest or a creative of its library (build_creative), previews creatives in
 * them, and keeps a creative library of them for each organization (sync_creatives,
 * list_creatives). It serves the assets builds generate, its own and the creative builder's.
 */
export function creativeAgent({
  base,
  path = '/creative',
  credentials,
  fetcher,
  previewTtlSeconds = 86_400,
  brands,
  generator,
}: CreativeAgentOptions): Tenant {
  // It serves the assets the creative builder generates too (under its path), and its snapshots read them locally.
  const { agentUrl, formats, assetsUrl, preview, renderer, tenant } = creativeHosting({
    base,
    path,
    formatsPath: path,
    assetsPath: `${path}/assets`,
    servesAssets: true,
    fetcher,
    previewTtlSeconds,
    credentials,
    offers: { library: true, generation: false },
  });
  return {
    ...tenant,
    name: 'creative',
    path,
    description:
      'Creative agent: the standard formats, with their assets and renders; builds creatives in them from their templates and a manifest or a creative of its library; hosted previews of creatives in them, and a creative library.',
    specialisms: ['creative-template'],
    tasks: [
      listCreativeFormatsTask({ formats, protocol: 'creative' }),
      buildCreativeTask({
        formats,
        agentUrl,
        assetsUrl,
        fetcher,
        preview,
        fromBrief: false,
        library: true,
        brands,
        ...(generator ? { generator } : {}),
      }),
      previewCreativeTask({ ...preview, renderer }),
      syncCreativesTask({ formats, agentUrl }),
      listCreativesTask(),
    ],
  };
}
