import { AgentError } from '../../../protocol/errors.ts';
import type { Database } from '../../../db/database.ts';
import { findFormat, type CreativeManifest, type FormatId, type ManifestProblem } from '../../formats/index.ts';
import { inputSetSummary } from '../../creative-library/index.ts';
import {
  ownerOf,
  publishedSchemas,
  textInput,
  type AgentTask,
  type JsonSchema,
  type TaskArguments,
} from '../../runtime/index.ts';
import { buildFormat } from '../build/build-format.ts';
import { brandDomainOf, type KnownBrand } from '../build/known-brand.ts';
import { assetImage } from '../build/local-assets.ts';
import { planBuild } from '../build/plan.ts';
import { promotedKey } from '../build/promoted.ts';
import { rendererWith, type LocalImages } from '../previews/renderer.ts';
import { buildTools, previewOf } from './build-outputs.ts';
import {
  fetchImages,
  libraryManifest,
  type BuildArgs,
  type BuildSettings,
  type FetchedImages,
} from './build-sources.ts';

const formatId: JsonSchema = {
  type: 'object',
  description: 'core/format-id.json {agent_url, id}: a format of the creative agent (list_creative_formats).',
};

/**
 * `build_creative` (spec section 4; media-buy/build-creative-request.json). Generation: a minimal
 * manifest whose `assets.promoted_offerings` holds the brand (brand_manifest: name, url, colors,
 * logos) and `inline_offerings[]` gets every asset the target format needs, its words composed from
 * the offerings and its images drawn in the brand's colours with its logo; with `fromBrief`, a
 * `message` alone is generated from too (its subject promoted, for the referenced brand as the
 * registry knows it). Transformation: a complete manifest (or, with `library`, a creative of the
 * caller's library named by `creative_id`) is adapted to the target, its images re-laid at the
 * target's sizes and its words fitted to the target's limits. `message` may ask for shorter texts,
 * another call to action, or a colour to emphasise. The same request builds the same assets, stored
 * under their digest so their URLs are stable. `target_format_ids[]` answers
 * `creative_manifests[]`, all or nothing. `account` names the library a creative_id is of; this
 * agent charges nothing, so it is otherwise only accepted.
 */
export function buildCreativeTask(settings: BuildSettings): AgentTask<BuildArgs & TaskArguments> {
  const sources = settings.fromBrief
    ? 'from a brief alone (message, with brand: {domain}: "a banner promoting our winter sale"), from promoted offerings (creative_manifest.assets.promoted_offerings: {brand_manifest: {name, url, colors, logos}, inline_offerings: [{name, description, landing_url}]}), or transform a complete creative_manifest,'
    : `from a format's template filled with a creative_manifest's promoted offerings (assets.promoted_offerings: {brand_manifest, inline_offerings}) or a complete creative_manifest to adapt${settings.library ? ', or a creative_id of your library here (account names the library)' : ''},`;
  return {
    name: 'build_creative',
    description: `Build a creative ${sources} into target_format_id (or each of target_format_ids[]). message may ask for shorter texts, another call to action (change the CTA to "Shop now") or a colour to emphasise. include_preview adds a hosted preview.`,
    input: {
      type: 'object',
      properties: {
        message: textInput(
          'prose',
          'The brief, or the changes wanted: shorter copy, change the CTA to "Book now", emphasise the secondary colour',
        ),
        creative_manifest: {
          type: 'object',
          description:
            'core/creative-manifest.json: minimal (format_id and assets.promoted_offerings) to generate, complete to transform.',
        },
        creative_id: {
          type: 'string',
          description: settings.library
            ? 'A creative of your library here (list_creatives), built into the target format.'
            : 'Creatives of a library: this agent keeps none.',
        },
        account: {
          type: 'object',
          description: 'core/account-ref.json: the library a creative_id is of; accepted by every build.',
        },
        target_format_id: formatId,
        target_format_ids: {
          type: 'array',
          minItems: 1,
          maxItems: 20,
          items: formatId,
          description: 'Several formats at once: answered as creative_manifests[] in this order.',
        },
        brand: {
          type: 'object',
          description: 'core/brand-ref.json; its domain stands for a brand the manifest does not describe.',
        },
        include_preview: { type: 'boolean' },
        preview_inputs: { type: 'array', minItems: 1, maxItems: 20, items: inputSetSummary },
        preview_output_format: { type: 'string', enum: ['url', 'html'] },
        preview_quality: { type: 'string', enum: ['draft', 'production'] },
        quality: { type: 'string', enum: ['draft', 'production'] },
        macro_values: inputSetSummary.properties.macros,
      },
      additionalProperties: true,
    },
    ...publishedSchemas('media-buy/build-creative'),
    publishedForm: (args) => asPublished(args, oneTarget(args)),
    mutates: true,
    // The buyer's logos and pictures, and the referenced brand's, are fetched before the call's transaction opens.
    prepare: (args, { db, principal }) => prepareBuild(args, settings, db, ownerOf(principal)),
    async handler(args, ctx) {
      const targetIds: Array<{ id: FormatId; field: string }> = args.target_format_ids
        ? args.target_format_ids.map((id, i) => ({ id, field: `target_format_ids[${i}]` }))
        : args.target_format_id
          ? [{ id: args.target_format_id, field: 'target_format_id' }]
          : args.creative_manifest?.format_id
            ? [{ id: args.creative_manifest.format_id, field: 'creative_manifest.format_id' }]
            : [];
      const manifest =
        args.creative_id !== undefined
          ? await libraryManifest(args, settings, ctx.db, ownerOf(ctx.principal))
          : args.creative_manifest;
      if (targetIds.length === 0 && manifest?.format_id && args.creative_id !== undefined)
        targetIds.push({ id: manifest.format_id, field: 'creative_id' });
      if (!manifest) {
        if (args.message === undefined || args.message.trim() === '') {
          throw new AgentError(
            'INVALID_REQUEST',
            'Say what to build from: a message (the brief), a creative_manifest (promoted offerings, or a creative to adapt), or a creative_id.',
            { field: 'message' },
          );
        }
        if (!settings.fromBrief) {
          throw new AgentError(
            'UNSUPPORTED_FEATURE',
            "This agent builds from a format's template and a creative_manifest; it does not generate from a brief alone.",
            {
              field: 'creative_manifest',
              suggestion: `Send creative_manifest.assets.promoted_offerings (brand_manifest, inline_offerings) to fill the template${settings.generator ? `, or ask the generative builder at ${settings.generator()} with the brief alone` : ''}.`,
            },
          );
        }
      }
      if (targetIds.length === 0)
        throw new AgentError('INVALID_REQUEST', 'Name the format to build: target_format_id (or target_format_ids).', {
          field: 'target_format_id',
        });
      const formats = settings.formats();
      const agentUrl = settings.agentUrl();
      const targets = targetIds.map(({ id, field }) => {
        const format = findFormat(formats, id, agentUrl);
        if (!format) {
          throw new AgentError(
            'FORMAT_NOT_SUPPORTED',
            `This agent builds no format ${JSON.stringify(id.id)} at ${id.agent_url}.`,
            {
              field,
              suggestion: `list_creative_formats at ${agentUrl} lists the formats this agent builds, with their format_id.`,
            },
          );
        }
        return format;
      });
      const sourceFormat = manifest?.format_id ? findFormat(formats, manifest.format_id, agentUrl) : undefined;
      const prepared = ctx.prepared as Prepared | undefined;
      const plan = planBuild({
        manifest,
        sourceFormat,
        message: args.message,
        brandRef: args.brand,
        knownBrand: prepared?.brand,
        macroValues: args.macro_values,
      });

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
      const fetched = prepared?.images;
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
        throw new AgentError(
          'VALIDATION_ERROR',
          `The creative cannot be built: ${problems.map((p) => (several ? `[${p.format_id.id}] ${p.message}` : p.message)).join(' ')}`,
          {
            field: problems[0]!.field,
            details: { assets: problems },
            suggestion:
              'list_creative_formats shows what each format needs; promoted offerings, a landing page and (for video and audio) the spot itself are what a build starts from.',
          },
        );
      }
      const answer: Record<string, unknown> = args.target_format_ids
        ? { creative_manifests: manifests }
        : { creative_manifest: manifests[0] };
      if (args.include_preview)
        Object.assign(answer, await previewOf(args, manifests, targets, { ...settings.preview, renderer }, ctx));
      return answer;
    },
  };
}

/** What a build reads before its transaction: the referenced brand as the registry knows it, and the images it may draw. */
interface Prepared {
  brand?: KnownBrand | undefined;
  images?: FetchedImages | undefined;
}

/**
 * The referenced brand as the registry knows it, and every image the build could draw (the
 * source's logo and picture, a library creative's included, the brand's logos) loaded through the
 * SSRF-safe client, this server's own assets from the database. A request the build will refuse
 * loads nothing: the handler refuses it with the same error.
 */
async function prepareBuild(args: BuildArgs, settings: BuildSettings, db: Database, owner: string): Promise<Prepared> {
  const domain = brandDomainOf(args.brand);
  const brand = domain && settings.brands ? await settings.brands(db, domain) : undefined;
  let manifest: CreativeManifest | undefined;
  try {
    const given = args.creative_manifest;
    if (args.creative_id !== undefined) {
      manifest = await libraryManifest(args, settings, db, owner);
    } else manifest = typeof given === 'object' && given !== null && !Array.isArray(given) ? given : undefined;
  } catch (err) {
    if (err instanceof AgentError) return { brand };
    throw err;
  }
  if (!manifest && !settings.fromBrief) return { brand };
  return { brand, images: await fetchImages(args, manifest, settings, db, brand) };
}

/** The one target format a build names, if any; both fields at once are refused. */
function oneTarget(args: BuildArgs): FormatId | undefined {
  if (args.target_format_id && args.target_format_ids) {
    throw new AgentError('INVALID_REQUEST', 'Send target_format_id or target_format_ids, not both.', {
      field: 'target_format_ids',
    });
  }
  return args.target_format_ids?.[0] ?? args.target_format_id;
}

/**
 * The request as the published schema is checked against: the spec's promoted_offerings asset
 * (which names no asset_type, so matches none of asset-union.json's) left to the build's own
 * reading, and a minimal manifest's missing format_id taken as its target's.
 */
function asPublished(args: BuildArgs & Record<string, unknown>, target: FormatId | undefined): Record<string, unknown> {
  const manifest = args.creative_manifest;
  if (typeof manifest !== 'object' || manifest === null || Array.isArray(manifest)) return args;
  const assets =
    typeof manifest.assets === 'object' && manifest.assets !== null && !Array.isArray(manifest.assets)
      ? { ...manifest.assets }
      : manifest.assets;
  const promoted = assets?.[promotedKey] as Record<string, unknown> | undefined;
  if (assets && promoted && typeof promoted === 'object' && promoted['asset_type'] === undefined)
    delete assets[promotedKey];
  return {
    ...args,
    creative_manifest: {
      ...manifest,
      ...(manifest.format_id === undefined && target ? { format_id: target } : {}),
      assets,
    },
  };
}
