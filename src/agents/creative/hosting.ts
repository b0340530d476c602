import type { SafeFetch } from '../../net/safe-fetch.ts';
import { standardFormatsAt } from '../formats/index.ts';
import type { Tenant, TenantPass } from '../runtime/index.ts';
import { assetRoutes } from './build/asset-routes.ts';
import { localAssets } from './build/local-assets.ts';
import { rendererWith } from './previews/renderer.ts';
import { previewRoutes } from './previews/routes.ts';
import { pruneExpired } from './previews/sql.ts';

export interface HostingOptions {
  /** The deployment's public base URL, asked when answering (known once the server listens). */
  base: () => string;
  /** Where the tenant is mounted: its previews are served at `<path>/previews`. */
  path: string;
  /** Where the creative agent whose formats it builds is mounted: its format ids name `<base><formatsPath>/mcp`. */
  formatsPath: string;
  /** Where the generated assets are served: `<base><assetsPath>/<sha256>.png`. */
  assetsPath: string;
  /** Serve the generated assets at `assetsPath`; not when another tenant mounted there serves them. */
  servesAssets: boolean;
  /** Fetches the images a build draws and a preview snapshots: the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How long a hosted preview lives. */
  previewTtlSeconds: number;
  credentials: Tenant['credentials'];
  /** What the tenant offers beyond transforming a creative into other formats. */
  offers: { library: boolean; generation: boolean };
}

/** Expired previews answer 410 for a week, then are forgotten (404). */
const goneForMs = 7 * 86_400_000;

const prunePreviews: TenantPass = {
  name: 'previews',
  intervalMs: 3_600_000,
  run: async ({ db, clock }) => void (await pruneExpired(db, new Date(clock.now().getTime() - goneForMs))),
};

/**
 * What the creative agent and the creative builder host alike: the standard formats, named by the
 * creative agent's URL; hosted previews, whose snapshots read the generated assets from the
 * database rather than fetch this server's own URLs; the hourly pass that forgets expired
 * previews; the routes that serve the previews and, where asked, the assets; and what each
 * declares of itself alike (`tenant`: protocol, envelope, credentials, capabilities).
 */
export function creativeHosting(o: HostingOptions) {
  const agentUrl = () => `${o.base()}${o.formatsPath}/mcp`;
  const formats = () => standardFormatsAt(agentUrl());
  const assetsUrl = () => `${o.base()}${o.assetsPath}`;
  const assets = localAssets(assetsUrl);
  const renderer = rendererWith(o.fetcher, assets.images);
  const previewsUrl = () => `${o.base()}${o.path}/previews`;
  const routes: NonNullable<Tenant['routes']> = (app, { db, clock }) => {
    assets.use(db);
    previewRoutes(app, { db, clock, path: o.path, formats, renderer });
    if (o.servesAssets) assetRoutes(app, { db, path: o.assetsPath });
  };
  return {
    agentUrl,
    formats,
    assetsUrl,
    renderer,
    preview: { formats, agentUrl, previewsUrl, ttlSeconds: o.previewTtlSeconds },
    tenant: {
      protocols: ['creative'],
      httpEnvelope: 'creative',
      credentials: o.credentials,
      passes: [prunePreviews],
      routes,
      capabilities: () => ({
        creative: {
          supports_compliance: false,
          has_creative_library: o.offers.library,
          supports_generation: o.offers.generation,
          supports_transformation: true,
        },
      }),
    } satisfies Partial<Tenant>,
  };
}
