import { AgentError } from '../../../protocol/errors.ts';
import type { Database, Queryable } from '../../../db/database.ts';
import type { SafeFetch } from '../../../net/safe-fetch.ts';
import { findFormat, type CreativeManifest, type Format, type FormatId, type ManifestProblem } from '../../formats/index.ts';
import { inputSetSummary } from '../../creative-library/index.ts';
import { checkPublishedRequest, errorObject, textInput, type AgentTask, type JsonSchema } from '../../runtime/index.ts';
import { assetUrl } from '../build/asset-routes.ts';
import { storeAsset } from '../build/asset-store.ts';
import { buildFormat, type BuildTools } from '../build/build-format.ts';
import { assetImage } from '../build/local-assets.ts';
import { planBuild } from '../build/plan.ts';
import { promotedKey } from '../build/promoted.ts';
import { rendererWith, type LocalImages } from '../previews/renderer.ts';
import { insertPreviews, PreviewSet } from '../previews/sql.ts';
import { svgPng, type EmbeddedImage } from '../render/index.ts';
import { previewsOf, principalOf, type PreviewSettings } from './preview-creative.ts';

const REQUEST = '/schemas/3.0.6/media-buy/build-creative-request.json';

export interface BuildSettings {
  /** The formats it builds, and the creative agent URL they are named by. */
  formats: () => readonly Format[];
  agentUrl: () => string;
  /** Where its generated assets are served: `<base><assets path>`. */
  assetsUrl: () => string;
  /** Fetches the images a build draws (logos, pictures to re-lay): the SSRF-safe client. */
  fetcher: SafeFetch;
  /** How include_preview previews are made and hosted (preview_creative's own settings, less the renderer a build brings). */
  preview: Omit<PreviewSettings, 'renderer'>;
}

interface BuildArgs {
  message?: string;
  creative_manifest?: CreativeManifest;
  creative_id?: string;
  target_format_id?: FormatId;
  target_format_ids?: FormatId[];
  brand?: unknown;
  include_preview?: boolean;
  preview_inputs?: Array<{ name: string; macros?: Record<string, string>; context_description?: string }>;
  preview_output_format?: 'url' | 'html';
  preview_quality?: 'draft' | 'production';
  macro_values?: Record<string, string>;
}

const formatId: JsonSchema = { type: 'object', description: 'core/format-id.json {agent_url, id}: a format of the creative agent (list_creative_formats).' };

/**
 * `build_creative` (spec section 4; media-buy/build-creative-request.json). Generation: a minimal
 * manifest whose `assets.promoted_offerings` holds the brand (brand_manifest: name, url, colors,
 * logos) and `inline_offerings[]` gets every asset the target format needs, its words composed from
 * the offerings and its images drawn in the brand's colours with its logo. Transformation: a
 * complete manifest is adapted to the target, its images re-laid at the target's sizes and its
 * words fitted to the target's limits. `message` may ask for shorter texts, another call to action,
 * or a colour to emphasise. The same request builds the same assets, stored under their digest so
 * their URLs are stable. `target_format_ids[]` answers `creative_manifests[]`, all or nothing.
 */
export function buildCreativeTask(settings: BuildSettings): AgentTask {
  return {
    name: 'build_creative',
    description:
      'Generate a creative from promoted offerings (creative_manifest.assets.promoted_offerings: {brand_manifest: {name, url, colors, logos}, inline_offerings: [{name, description, landing_url}]}), or transform a complete creative_manifest, into target_format_id (or each of target_format_ids[]). message may ask for shorter texts, another call to action (change the CTA to "Shop now") or a colour to emphasise. include_preview adds a hosted preview.',
    input: {
      type: 'object',
      properties: {
        message: textInput('prose', 'The brief, or the changes wanted: shorter copy, change the CTA to "Book now", emphasise the secondary colour'),
        creative_manifest: { type: 'object', description: 'core/creative-manifest.json: minimal (format_id and assets.promoted_offerings) to generate, complete to transform.' },
        creative_id: { type: 'string' },
        target_format_id: formatId,
        target_format_ids: { type: 'array', minItems: 1, maxItems: 20, items: formatId, description: 'Several formats at once: answered as creative_manifests[] in this order.' },
        brand: { type: 'object', description: 'core/brand-ref.json; its domain stands for a brand the manifest does not describe.' },
        include_preview: { type: 'boolean' },
        preview_inputs: { type: 'array', minItems: 1, maxItems: 20, items: inputSetSummary },
        preview_output_format: { type: 'string', enum: ['url', 'html'] },
        preview_quality: { type: 'string', enum: ['draft', 'production'] },
        quality: { type: 'string', enum: ['draft', 'production'] },
        macro_values: inputSetSummary.properties.macros,
      },
      additionalProperties: true,
    },
    output: { $ref: '/schemas/3.0.6/media-buy/build-creative-response.json' },
    mutates: true,
    // The buyer's logos and pictures are fetched before the call's transaction opens.
    prepare: (raw, { db }) => fetchImages(raw as BuildArgs, settings, db),
    async handler(raw, ctx) {
      const args = raw as BuildArgs & Record<string, unknown>;
      if (args.target_format_id && args.target_format_ids) {
        throw new AgentError('INVALID_REQUEST', 'Send target_format_id or target_format_ids, not both.', { field: 'target_format_ids' });
      }
      const targetIds: Array<{ id: FormatId; field: string }> = args.target_format_ids
        ? args.target_format_ids.map((id, i) => ({ id, field: `target_format_ids[${i}]` }))
        : args.target_format_id
          ? [{ id: args.target_format_id, field: 'target_format_id' }]
          : args.creative_manifest?.format_id
            ? [{ id: args.creative_manifest.format_id, field: 'creative_manifest.format_id' }]
            : [];
      checkPublishedRequest(REQUEST, asPublished(args, targetIds[0]?.id));
      if (args.creative_id !== undefined) {
        throw new AgentError('UNSUPPORTED_FEATURE', 'This agent keeps no creative library: send the creative_manifest to build from.', { field: 'creative_id' });
      }
      const manifest = args.creative_manifest;
      if (!manifest) throw new AgentError('INVALID_REQUEST', 'creative_manifest is required: promoted offerings to generate from, or a complete creative to transform.', { field: 'creative_manifest' });
      if (targetIds.length === 0) throw new AgentError('INVALID_REQUEST', 'Name the format to build: target_format_id (or target_format_ids).', { field: 'target_format_id' });
      const formats = settings.formats();
      const agentUrl = settings.agentUrl();
      const targets = targetIds.map(({ id, field }) => {
        const format = findFormat(formats, id, agentUrl);
        if (!format) {
          throw new AgentError('FORMAT_NOT_SUPPORTED', `This agent builds no format ${JSON.stringify(id.id)} at ${id.agent_url}.`, {
            field,
            suggestion: `list_creative_formats at ${agentUrl} lists the formats this agent builds, with their format_id.`,
          });
        }
        return format;
      });
      const sourceFormat = manifest.format_id ? findFormat(formats, manifest.format_id, agentUrl) : undefined;
      const plan = planBuild({ manifest, sourceFormat, message: args.message, brandRef: args.brand, macroValues: args.macro_values });

      const now = ctx.clock.now();
      const prefix = settings.assetsUrl();
      const fresh = new Map<string, Uint8Array>();
      // Images of this server are read in the call's own transaction (another connection would wait
      // for it on PGlite), and those this call made before they are even written.
      const local: LocalImages = async (url) => {
        const made = fresh.get(url);
        return made ? { bytes: made, contentType: 'image/png' } : assetImage(ctx.db, prefix, url);
      };
      const renderer = rendererWith(undefined, local);
      const fetched = ctx.prepared as FetchedImages | undefined;
      const embed = (url: string) => (fetched?.has(url) ? Promise.resolve(fetched.get(url)) : renderer.embedImage(url));
      const tools = buildTools(embed, ctx.db, prefix, now, fresh);
      const manifests: CreativeManifest[] = [];
      const problems: Array<ManifestProblem & { format_id: FormatId }> = [];
      for (const format of targets) {
        const built = await buildFormat(format, plan, tools);
        manifests.push(built.manifest);
        problems.push(...built.problems.map((p) => ({ ...p, format_id: format.format_id })));
      }
      if (problems.length > 0) {
        const several = targets.length > 1;
        throw new AgentError('VALIDATION_ERROR', `The creative cannot be built: ${problems.map((p) => (several ? `[${p.format_id.id}] ${p.message}` : p.message)).join(' ')}`, {
          field: problems[0]!.field,
          details: { assets: problems },
          suggestion: 'list_creative_formats shows what each format needs; promoted offerings, a landing page and (for video and audio) the spot itself are what a build starts from.',
        });
      }
      const answer: Record<string, unknown> = args.target_format_ids ? { creative_manifests: manifests } : { creative_manifest: manifests[0] };
      if (args.include_preview) Object.assign(answer, await previewOf(args, manifests, targets, { ...settings.preview, renderer }, ctx));
      return answer;
    },
  };
}

/** The buyer's images a build may draw, as loaded (undefined: could not be), by URL. */
type FetchedImages = Map<string, EmbeddedImage | undefined>;

/**
 * Loads every image the build could draw (the source's logo and picture, the brand's logos)
 * through the SSRF-safe client, this server's own assets from the database. A request the build
 * will refuse loads nothing: the handler refuses it with the same error.
 */
async function fetchImages(args: BuildArgs, settings: BuildSettings, db: Database): Promise<FetchedImages | undefined> {
  const manifest = args.creative_manifest;
  if (!manifest || typeof manifest !== 'object') return undefined;
  let urls: string[];
  try {
    const sourceFormat = manifest.format_id ? findFormat(settings.formats(), manifest.format_id, settings.agentUrl()) : undefined;
    const plan = planBuild({ manifest, sourceFormat, message: args.message, brandRef: args.brand, macroValues: args.macro_values });
    urls = [plan.source.logo, plan.source.picture, ...(plan.promoted?.brand.logos ?? []).map((l) => l.url)].filter((u): u is string => typeof u === 'string');
  } catch (err) {
    if (err instanceof AgentError) return undefined;
    throw err;
  }
  const prefix = settings.assetsUrl();
  const loader = rendererWith(settings.fetcher, (url) => assetImage(db, prefix, url));
  const unique = [...new Set(urls)];
  return new Map(await Promise.all(unique.map(async (url) => [url, await loader.embedImage(url)] as const)));
}

function buildTools(embed: (url: string) => Promise<EmbeddedImage | undefined>, db: Queryable, prefix: string, now: Date, fresh: Map<string, Uint8Array>): BuildTools {
  const images = new Map<string, Promise<EmbeddedImage | undefined>>();
  return {
    image(url) {
      let image = images.get(url);
      if (!image) images.set(url, (image = embed(url)));
      return image;
    },
    draw: svgPng,
    async store(png) {
      const url = assetUrl(prefix, await storeAsset(db, png, 'png', now));
      fresh.set(url, png);
      return url;
    },
  };
}

/**
 * The preview include_preview asks for, as preview_creative makes it: one per preview input for
 * a single format, one default preview per format (with its format_id) for several. A preview
 * that fails leaves the build standing, with preview_error.
 */
async function previewOf(args: BuildArgs, manifests: CreativeManifest[], targets: Format[], settings: PreviewSettings, ctx: Parameters<AgentTask['handler']>[1]): Promise<Record<string, unknown>> {
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + settings.ttlSeconds * 1000);
  const stored = new PreviewSet();
  const options = { output_format: args.preview_output_format ?? 'url', quality: args.preview_quality ?? 'draft' } as const;
  try {
    const previews: Array<Record<string, unknown>> = [];
    if (args.target_format_ids) {
      for (const [i, manifest] of manifests.entries()) {
        const [first] = await previewsOf({ creative_manifest: manifest, ...options }, '', settings, stored);
        previews.push({ ...first, format_id: targets[i]!.format_id });
      }
    } else {
      previews.push(...(await previewsOf({ creative_manifest: manifests[0]!, ...options, ...(args.preview_inputs ? { inputs: args.preview_inputs } : {}) }, '', settings, stored)));
    }
    await insertPreviews(ctx.db, principalOf(ctx), stored, now, expiresAt);
    return { preview: { previews, expires_at: expiresAt.toISOString() } };
  } catch (err) {
    if (!(err instanceof AgentError)) throw err;
    return { preview_error: errorObject(err) };
  }
}

/**
 * The request as the published schema is checked against: the spec's promoted_offerings asset
 * (which names no asset_type, so matches none of asset-union.json's) left to the build's own
 * reading, and a minimal manifest's missing format_id taken as its target's.
 */
function asPublished(args: BuildArgs & Record<string, unknown>, target: FormatId | undefined): Record<string, unknown> {
  const manifest = args.creative_manifest;
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return args;
  const assets = typeof manifest.assets === 'object' && manifest.assets !== null && !Array.isArray(manifest.assets) ? { ...manifest.assets } : manifest.assets;
  const promoted = assets?.[promotedKey] as Record<string, unknown> | undefined;
  if (assets && promoted && typeof promoted === 'object' && promoted['asset_type'] === undefined) delete assets[promotedKey];
  return { ...args, creative_manifest: { ...manifest, ...(manifest.format_id === undefined && target ? { format_id: target } : {}), assets } };
}
