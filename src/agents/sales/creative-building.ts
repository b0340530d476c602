import type { SafeFetch } from '../../net/safe-fetch.ts';
import { buildCreativeTask, type BrandLookup } from '../creative/index.ts';
import { standardFormatsAt } from '../formats/index.ts';
import type { AgentTask } from '../runtime/index.ts';

export interface CreativeBuilding {
  /** Fetches the logos and pictures a build draws: the SSRF-safe client. */
  fetcher: SafeFetch;
  /** Where the deployment's creative agent is mounted: it defines the formats, and serves the assets and previews built here. */
  creativePath?: string;
  /** How long a hosted preview lives (default a day), as the creative agent's. */
  previewTtlSeconds?: number;
  /** The brands the registry knows, which a brief alone is drawn for. */
  brands?: BrandLookup;
}

/**
 * build_creative on the sales agent (sales-catalog-driven exercises it there): a buyer builds the
 * creative for a product's format, from its offerings (a catalog's items as inline offerings), from
 * the seller it buys from. It is the creative builder's own task, building the formats of the
 * deployment's creative agent, whose routes serve what it generates (assets and previews), so
 * both build alike.
 */
export function salesBuildCreativeTask(
  base: () => string,
  { fetcher, creativePath = '/creative', previewTtlSeconds = 86_400, brands }: CreativeBuilding,
): AgentTask {
  const agentUrl = () => `${base()}${creativePath}/mcp`;
  const formats = () => standardFormatsAt(agentUrl());
  return buildCreativeTask({
    formats,
    agentUrl,
    assetsUrl: () => `${base()}${creativePath}/assets`,
    fetcher,
    preview: {
      formats,
      agentUrl,
      previewsUrl: () => `${base()}${creativePath}/previews`,
      ttlSeconds: previewTtlSeconds,
    },
    fromBrief: true,
    ...(brands ? { brands } : {}),
  });
}
