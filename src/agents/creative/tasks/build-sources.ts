import { AgentError } from '../../../protocol/errors.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { findFormat, type CreativeManifest, type FormatId } from '../../formats/index.ts';
import type { BrandLookup, KnownBrand } from '../build/known-brand.ts';
import { assetImage } from '../build/local-assets.ts';
import { planBuild } from '../build/plan.ts';
import { accountKey } from '../library/account.ts';
import { creativeInLibraries } from '../library/sql.ts';
import type { AgentFormats } from '../own-formats.ts';
import { rendererWith } from '../previews/renderer.ts';
import type { EmbeddedImage } from '../render/index.ts';
import type { PreviewSettings } from './preview-creative.ts';

/** What build_creative is made from: its settings and arguments, a library creative it names, the images it draws. */

export interface BuildSettings extends AgentFormats {
  /** Where its generated assets are served: `<base><assets path>`. */
  assetsUrl: () => string;
  /** Fetches the images a build draws (logos, pictures to re-lay): the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How include_preview previews are made and hosted (preview_creative's own settings, less the renderer a build brings). */
  preview: Omit<PreviewSettings, 'renderer'>;
  /**
   * Whether it generates from a brief alone (`message` and the `brand` referenced, no manifest):
   * the generative builder does; a template agent builds only from a manifest or its library, and
   * points such a request to `generator`.
   */
  fromBrief: boolean;
  /** Where a brief alone is built, named in a template agent's refusal. */
  generator?: () => string;
  /** Builds a creative_id of this agent's library (the caller's creatives, by account). */
  library?: boolean;
  /** What the registry knows of a referenced brand (name, site, colours, logos); nothing when absent. */
  brands?: BrandLookup | undefined;
}

export interface BuildArgs {
  message?: string;
  creative_manifest?: CreativeManifest;
  creative_id?: string;
  target_format_id?: FormatId;
  target_format_ids?: FormatId[];
  brand?: unknown;
  account?: Record<string, unknown>;
  include_preview?: boolean;
  preview_inputs?: Array<{ name: string; macros?: Record<string, string>; context_description?: string }>;
  preview_output_format?: 'url' | 'html';
  preview_quality?: 'draft' | 'production';
  macro_values?: Record<string, string>;
}

/** The buyer's images a build may draw, as loaded (undefined: could not be), by URL. */
export type FetchedImages = Map<string, EmbeddedImage | undefined>;

export async function fetchImages(
  args: BuildArgs,
  manifest: CreativeManifest | undefined,
  settings: BuildSettings,
  db: Database,
  brand: KnownBrand | undefined,
): Promise<FetchedImages | undefined> {
  let urls: string[];
  try {
    const sourceFormat = manifest?.format_id
      ? findFormat(settings.formats(), manifest.format_id, settings.agentUrl())
      : undefined;
    const plan = planBuild({
      manifest,
      sourceFormat,
      message: args.message,
      brandRef: args.brand,
      knownBrand: brand,
      macroValues: args.macro_values,
    });
    urls = [plan.source.logo, plan.source.picture, ...(plan.promoted?.brand.logos ?? []).map((l) => l.url)].filter(
      (u): u is string => typeof u === 'string',
    );
  } catch (err) {
    if (err instanceof AgentError) return undefined;
    throw err;
  }
  const prefix = settings.assetsUrl();
  const loader = rendererWith(settings.fetcher, (url) => assetImage(db, prefix, url));
  const unique = [...new Set(urls)];
  return new Map(await Promise.all(unique.map(async (url) => [url, await loader.embedImage(url)] as const)));
}

/**
 * The creative a creative_id names in the caller's libraries here: of the library `account`
 * names, else of any of them, as long as only one holds it.
 */
export async function libraryManifest(
  args: BuildArgs,
  settings: BuildSettings,
  db: Queryable,
  owner: string,
): Promise<CreativeManifest> {
  if (!settings.library) {
    throw new AgentError(
      'UNSUPPORTED_FEATURE',
      'This agent keeps no creative library: send the creative_manifest to build from.',
      { field: 'creative_id' },
    );
  }
  const found = await creativeInLibraries(
    db,
    owner,
    args.account ? accountKey(args.account) : undefined,
    args.creative_id!,
  );
  if (found.length === 0) {
    throw new AgentError(
      'CREATIVE_NOT_FOUND',
      `Your library here holds no creative ${JSON.stringify(args.creative_id)}${args.account ? ' under this account' : ''}.`,
      {
        field: 'creative_id',
        suggestion: 'list_creatives lists your creatives here; sync_creatives adds one.',
      },
    );
  }
  if (found.length > 1) {
    throw new AgentError(
      'INVALID_REQUEST',
      `Several of your libraries here hold a creative ${JSON.stringify(args.creative_id)}: name the one to build with account.`,
      { field: 'account' },
    );
  }
  return { format_id: found[0]!.format_id, assets: found[0]!.assets } as CreativeManifest;
}
