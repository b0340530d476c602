import type { ConfiguredCredential } from '../../auth/index.ts';
import type { SafeFetch } from '../../net/safe-fetch.ts';
import { listCreativeFormatsTask, standardFormatsAt } from '../formats/index.ts';
import type { Tenant, TenantPass } from '../runtime/index.ts';
import { assetRoutes } from './build/asset-routes.ts';
import type { BrandLookup } from './build/known-brand.ts';
import { localAssets } from './build/local-assets.ts';
import { rendererWith } from './previews/renderer.ts';
import { previewRoutes } from './previews/routes.ts';
import { pruneExpired } from './previews/sql.ts';
import { buildCreativeTask } from './tasks/build-creative.ts';
import { listCreativesTask } from './tasks/list-creatives.ts';
import { previewCreativeTask } from './tasks/preview-creative.ts';
import { syncCreativesTask } from './tasks/sync-creatives.ts';

export type { CreativeManifest, ManifestAsset } from '../formats/index.ts';
export { creativeBuilderAgent, type CreativeBuilderOptions } from './builder.ts';
export type { BrandLookup, KnownBrand } from './build/known-brand.ts';
// The build task itself, for a seller that builds the creative agent's formats (sales-catalog-driven).
export { buildCreativeTask } from './tasks/build-creative.ts';

export interface CreativeAgentOptions {
  /** The deployment's public base URL, asked when answering (known once the server listens). */
  base: () => string;
  /** Where it is mounted; `/creative` serves `/creative/mcp`, `/creative/a2a`, `/creative/tasks/<task>` and its previews. */
  path?: string;
  /** Tokens it accepts besides the registry's own (the test deployment's public credential). */
  credentials?: readonly ConfiguredCredential[];
  /** Fetches the images a manifest names (for PNG snapshots): the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How long a hosted preview lives (default a day). */
  previewTtlSeconds?: number;
  /** What the registry knows of a referenced brand, which a build draws (name, site, colours, logos). */
  brands?: BrandLookup;
  /** The generative builder's MCP URL, where a build from a brief alone is pointed. */
  generator?: () => string;
}

/** Expired previews answer 410 for a week, then are forgotten (404). */
const goneForMs = 7 * 86_400_000;

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
  const agentUrl = () => `${base()}${path}/mcp`;
  const formats = () => standardFormatsAt(agentUrl());
  const assetsUrl = () => `${base()}${path}/assets`;
  // What the creative builder generates is served under this agent's path: snapshots read it locally.
  const assets = localAssets(assetsUrl);
  const renderer = rendererWith(fetcher, assets.images);
  const preview = { formats, agentUrl, previewsUrl: () => `${base()}${path}/previews`, ttlSeconds: previewTtlSeconds };
  const prune: TenantPass = {
    name: 'previews',
    intervalMs: 3_600_000,
    run: async ({ db, clock }) => void (await pruneExpired(db, new Date(clock.now().getTime() - goneForMs))),
  };
  return {
    name: 'creative',
    path,
    description:
      'Creative agent: the standard formats, with their assets and renders; builds creatives in them from their templates and a manifest or a creative of its library; hosted previews of creatives in them, and a creative library.',
    protocols: ['creative'],
    specialisms: ['creative-template'],
    httpEnvelope: 'creative',
    credentials,
    passes: [prune],
    capabilities: () => ({
      creative: {
        supports_compliance: false,
        has_creative_library: true,
        supports_generation: false,
        supports_transformation: true,
      },
    }),
    routes: (app, { db, clock }) => {
      assets.use(db);
      previewRoutes(app, { db, clock, path, formats, renderer });
      assetRoutes(app, { db, path: `${path}/assets` });
    },
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
