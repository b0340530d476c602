import { createHash } from 'node:crypto';
import {
  manifestProblems,
  type Asset,
  type CreativeManifest,
  type Format,
  type ManifestAsset,
  type ManifestProblem,
} from '../../formats/index.ts';
import type { EmbeddedImage } from '../render/index.ts';
import { safeUrl } from '../render/safe-url.ts';
import { daastXml, vastXml, type Spot } from './ad-tags.ts';
import { bannerHtml } from './banner-html.ts';
import { layoutBanner, type BannerContent } from './banner-layout.ts';
import { bannerSvg, logoTileSvg } from './banner-svg.ts';
import { fitText, type Copy } from './copy.ts';
import type { Palette } from './palette.ts';
import { promotedKey, type Promoted } from './promoted.ts';
import type { Source } from './source.ts';

/** Everything one build knows, the same for each of its target formats. */
export interface BuildPlan {
  copy: Copy;
  palette: Palette;
  source: Source;
  promoted: Promoted | undefined;
  /** The clickthrough and impression tracker, as given (macros unfilled). */
  click?: string | undefined;
  impression?: string | undefined;
  /** The buyer's macro_values, filled into each format's URLs and tags where it supports the macro. */
  macroValues: Record<string, string>;
}

/** What drawing and storing take, shared by the targets of one call. */
export interface BuildTools {
  /** An image by URL (the SSRF-safe path), loaded once per call. */
  image(url: string): Promise<EmbeddedImage | undefined>;
  /** SVG to PNG. */
  draw(svg: string): Promise<Uint8Array>;
  /** Keeps the PNG and answers its stable URL. */
  store(png: Uint8Array): Promise<string>;
}

export interface Built {
  manifest: CreativeManifest;
  problems: ManifestProblem[];
}

const individual = (format: Format): Asset[] =>
  (format.assets ?? []).filter((a): a is Asset => a.item_type === 'individual');

/**
 * The manifest of one target format: each asset the format names made from the plan (texts fitted
 * to their limits, images drawn at their size and stored, the HTML5 banner, VAST or DAAST around
 * the given spot), optional ones where the plan has something for them. What cannot be made, and
 * anything the result still breaks of the format, comes back as problems naming the asset.
 */
export async function buildFormat(format: Format, given: BuildPlan, tools: BuildTools): Promise<Built> {
  const macros = macroFiller(format, given.macroValues);
  const plan = {
    ...given,
    click: given.click && macros(given.click),
    impression: given.impression && macros(given.impression),
    macros,
  };
  const assets: Record<string, ManifestAsset> = {};
  const problems: ManifestProblem[] = [];
  const id = format.format_id.id;
  const missing = (asset: Asset, field: string, message: string) => {
    if (asset.required)
      problems.push({
        asset_id: asset.asset_id,
        field,
        message: `Format ${id} requires ${asset.asset_id}: ${message}`,
      });
  };
  const wordsForImages = !individual(format).some((a) => a.asset_type === 'text');
  const clickable = individual(format).some((a) => a.asset_type === 'url' && roleOf(a) === 'clickthrough');
  for (const asset of individual(format)) {
    const role = roleOf(asset);
    const requirements = asset.requirements ?? {};
    switch (asset.asset_type) {
      case 'text': {
        const text = textFor(role, plan.copy);
        if (text === undefined) {
          missing(
            asset,
            `creative_manifest.assets.${asset.asset_id}`,
            `the manifest has no ${role.replaceAll('_', ' ')} and promotes no offering to write one from.`,
          );
          break;
        }
        assets[asset.asset_id] = { asset_type: 'text', content: fitText(text, numberOf(requirements['max_length'])) };
        break;
      }
      case 'url': {
        if (role === 'clickthrough') {
          if (plan.click) assets[asset.asset_id] = { asset_type: 'url', url: plan.click, url_type: 'clickthrough' };
          else
            missing(
              asset,
              plan.promoted ? `creative_manifest.assets.${promotedKey}.brand_manifest.url` : 'creative_manifest.assets',
              'a landing page: give the offering a landing_url or the brand manifest a url.',
            );
        } else if (plan.impression && (role === 'impression_tracker' || role === 'third_party_tracking')) {
          assets[asset.asset_id] = { asset_type: 'url', url: plan.impression, url_type: 'tracker_pixel' };
        } else missing(asset, 'creative_manifest.assets', 'a URL this agent has nothing to make from.');
        break;
      }
      case 'image': {
        const size = imageSize(requirements, format);
        if (role === 'logo' || asset.asset_id === 'logo') {
          const logo = await logoOf(plan, tools, true);
          if (logo)
            assets[asset.asset_id] = await pngAsset(
              logoTileSvg(
                size.width,
                plan.palette,
                { href: logo.image.href, dark: logo.dark },
                plan.copy.sponsor ?? '',
              ),
              size,
              tools,
              plan.copy.sponsor ?? '',
            );
          else if (asset.required)
            assets[asset.asset_id] = await pngAsset(
              logoTileSvg(size.width, plan.palette, undefined, plan.copy.sponsor ?? id),
              size,
              tools,
              plan.copy.sponsor ?? '',
            );
          break;
        }
        if (!asset.required && role !== 'hero_image') break;
        const content = await bannerContent(plan, tools, wordsForImages, clickable);
        const layout = layoutBanner(content.content, size.width, size.height);
        assets[asset.asset_id] = await pngAsset(
          bannerSvg(layout, plan.palette, content.images),
          size,
          tools,
          plan.copy.headline ?? plan.copy.sponsor ?? '',
        );
        break;
      }
      case 'html': {
        const size = renderSize(format) ?? { width: 300, height: 250 };
        const content = await bannerContent(plan, tools, true, true);
        const layout = layoutBanner(content.content, size.width, size.height);
        const title =
          [plan.copy.sponsor, plan.copy.headline].filter((t) => t !== undefined).join(': ') || (format.name ?? id);
        // Only http(s) (and data: images) go into markup a browser runs, whatever the manifest said.
        const links = {
          click: safeUrl(plan.click),
          picture: safeUrl(content.urls.picture, { image: true }),
          logo: safeUrl(content.urls.logo, { image: true }),
          title,
        };
        assets[asset.asset_id] = { asset_type: 'html', content: bannerHtml(layout, plan.palette, links) };
        break;
      }
      case 'video':
      case 'audio': {
        const media = asset.asset_type === 'video' ? plan.source.video : plan.source.audio;
        if (media) assets[asset.asset_id] = structuredClone(media);
        else missing(asset, 'creative_manifest.assets', mediaMissing(asset.asset_type));
        break;
      }
      case 'vast':
      case 'daast': {
        const kind = asset.asset_type === 'vast' ? 'video' : 'audio';
        const media = kind === 'video' ? plan.source.video : plan.source.audio;
        const given = asset.asset_type === 'vast' ? plan.source.vast : plan.source.daast;
        if (media) {
          const tag = adTag(asset, kind, media, plan, format);
          if (tag) assets[asset.asset_id] = tag;
          else
            missing(
              asset,
              'creative_manifest.assets',
              `the ${kind} spot's url is not an http(s) URL a player can fetch.`,
            );
        } else if (given) assets[asset.asset_id] = structuredClone(given);
        else missing(asset, 'creative_manifest.assets', mediaMissing(kind));
        break;
      }
      default:
        missing(asset, 'creative_manifest.assets', `this agent does not make ${asset.asset_type} assets.`);
    }
  }
  const manifest: CreativeManifest = { format_id: structuredClone(format.format_id), assets };
  const flagged = new Set(problems.map((p) => p.asset_id));
  problems.push(...manifestProblems(format, manifest).filter((p) => !flagged.has(p.asset_id)));
  return { manifest, problems };
}

const roleOf = (asset: Asset) =>
  typeof asset.requirements?.['role'] === 'string' ? asset.requirements['role'] : (asset.asset_role ?? asset.asset_id);

const numberOf = (value: unknown) => (typeof value === 'number' ? value : undefined);

function textFor(role: string, copy: Copy): string | undefined {
  if (role === 'headline' || role === 'title') return copy.headline;
  if (role === 'body_text' || role === 'description' || role === 'body') return copy.body;
  if (role === 'advertiser_name' || role === 'brand_name' || role === 'sponsor_name') return copy.sponsor;
  if (role === 'call_to_action' || role === 'cta') return copy.cta;
  return undefined;
}

const mediaMissing = (kind: 'video' | 'audio') =>
  `it plays ${kind === 'video' ? 'a video' : 'an audio'} spot, and this agent makes no ${kind}: add the spot to creative_manifest.assets as an asset with asset_type "${kind}" and its url (this agent writes the rest of the creative around it).`;

/** The size an image of the format is drawn at: the exact size it asks for, else its least at its aspect ratio. */
export function imageSize(requirements: Record<string, unknown>, format: Format): { width: number; height: number } {
  const minW = numberOf(requirements['min_width']);
  const minH = numberOf(requirements['min_height']);
  const ratioText = typeof requirements['aspect_ratio'] === 'string' ? requirements['aspect_ratio'] : undefined;
  const [a, b] = (ratioText ?? '').split(':').map(Number);
  const ratio = a && b ? a / b : undefined;
  if (minW && minH && !ratio) return { width: minW, height: minH };
  const fallback = renderSize(format) ?? { width: 1200, height: 628 };
  if (!ratio) return { width: minW ?? fallback.width, height: minH ?? fallback.height };
  let width = minW ?? fallback.width;
  let height = Math.round(width / ratio);
  if (minH && height < minH) {
    height = minH;
    width = Math.round(height * ratio);
  }
  return { width, height };
}

/** A fixed format's size, from its primary render. */
function renderSize(format: Format): { width: number; height: number } | undefined {
  const dims = (format.renders?.find((r) => r.role === 'primary') ?? format.renders?.[0])?.dimensions;
  return dims?.width && dims.height ? { width: dims.width, height: dims.height } : undefined;
}

async function pngAsset(
  svg: string,
  size: { width: number; height: number },
  tools: BuildTools,
  alt: string,
): Promise<ManifestAsset> {
  const png = await tools.draw(svg);
  const url = await tools.store(png);
  return {
    asset_type: 'image',
    url,
    width: size.width,
    height: size.height,
    format: 'png',
    file_size_bytes: png.byteLength,
    ...(alt ? { alt_text: alt } : {}),
  };
}

/** The logo to draw: the source manifest's, else the brand's (a square one first for a tile), as loaded. */
async function logoOf(
  plan: BuildPlan,
  tools: BuildTools,
  square: boolean,
): Promise<{ image: EmbeddedImage; url: string; dark: boolean } | undefined> {
  const logos = plan.promoted?.brand.logos ?? [];
  const ordered = square ? [...logos].sort((x, y) => Number(isSquare(y)) - Number(isSquare(x))) : logos;
  const candidates = [...(plan.source.logo ? [{ url: plan.source.logo, background: undefined }] : []), ...ordered];
  for (const logo of candidates) {
    const image = await tools.image(logo.url);
    if (image) return { image, url: logo.url, dark: logo.background === 'dark-bg' };
  }
  return undefined;
}

const isSquare = (logo: { orientation?: string; variant?: string }) =>
  logo.orientation === 'square' || logo.variant === 'icon';

/**
 * What a banner of this build shows: its words (unless the format carries them as texts of its
 * own, as native and responsive formats do: their images are pictures, not copy), the button where
 * there is a click, the logo, and the source's picture to re-lay.
 */
async function bannerContent(plan: BuildPlan, tools: BuildTools, words: boolean, clickable: boolean) {
  const logo = await logoOf(plan, tools, false);
  const picture = plan.source.picture ? await tools.image(plan.source.picture) : undefined;
  const pictureUrl = picture ? plan.source.picture : undefined;
  const content: BannerContent = {
    logo: logo ? { width: logo.image.width, height: logo.image.height } : undefined,
    picture: picture ? { width: picture.width, height: picture.height } : undefined,
  };
  if (words) {
    content.headline = plan.copy.headline;
    content.body = plan.copy.body;
    content.brandName = plan.copy.sponsor;
    if (clickable) content.cta = plan.copy.cta;
  } else if (!picture) {
    // A picture for a card that sets its own words: the brand, large.
    content.headline = plan.promoted?.offerings[0]?.tagline ?? plan.copy.sponsor ?? plan.copy.headline;
  }
  return {
    content,
    images: { picture: picture?.href, logo: logo?.image.href },
    urls: { picture: pictureUrl, logo: logo?.url },
  };
}

const mimeTypes: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
  ogv: 'video/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};

function mimeOf(media: ManifestAsset, kind: 'video' | 'audio'): string {
  const container = typeof media['container_format'] === 'string' ? media['container_format'].toLowerCase() : undefined;
  const path = (media.url ?? '').split(/[?#]/, 1)[0]!;
  const extension = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
  return mimeTypes[container ?? ''] ?? mimeTypes[extension] ?? (kind === 'video' ? 'video/mp4' : 'audio/mpeg');
}

/** The middle of the durations the format's asset accepts, for a spot whose manifest states none. */
function nominalDuration(requirements: Record<string, unknown>): number {
  const min = numberOf(requirements['min_duration_ms']);
  const max = numberOf(requirements['max_duration_ms']);
  return min !== undefined && max !== undefined ? Math.round((min + max) / 2) : (min ?? max ?? 30_000);
}

/**
 * Substitutes the buyer's values for the `{MACRO}`s the format supports (macro_values: the others
 * stay for the ad server to fill, and keys this agent does not know are ignored).
 */
function macroFiller(format: Format, values: Record<string, string>): (text: string) => string {
  const supported = new Set(format.supported_macros ?? []);
  const known = Object.entries(values).filter(([name, value]) => supported.has(name) && typeof value === 'string');
  if (known.length === 0) return (text) => text;
  const byName = new Map(known);
  return (text) => text.replace(/\{([A-Z][A-Z0-9_]*)\}/g, (written, name: string) => byName.get(name) ?? written);
}

/** The tag playing the spot; undefined when the spot's URL is not one a player fetches. */
function adTag(
  asset: Asset,
  kind: 'video' | 'audio',
  media: ManifestAsset,
  plan: BuildPlan & { macros: (text: string) => string },
  format: Format,
): ManifestAsset | undefined {
  const requirements = asset.requirements ?? {};
  const durationMs = typeof media.duration_ms === 'number' ? media.duration_ms : nominalDuration(requirements);
  const url = safeUrl(plan.macros(media.url!));
  if (!url) return undefined;
  const spot: Spot = {
    url,
    type: mimeOf(media, kind),
    durationMs,
    width: media.width,
    height: media.height,
    bitrateKbps: numberOf(media[kind === 'video' ? 'video_bitrate_kbps' : 'bitrate_kbps']),
  };
  const id = createHash('sha256')
    .update(JSON.stringify([format.format_id.id, spot, plan.click ?? '', plan.impression ?? '']))
    .digest('hex')
    .slice(0, 16);
  const title = [plan.copy.sponsor, plan.copy.headline].filter((t) => t !== undefined).join(': ') || format.name;
  const content = {
    id,
    title,
    advertiser: plan.copy.sponsor,
    click: safeUrl(plan.click),
    impression: safeUrl(plan.impression),
  };
  return asset.asset_type === 'vast'
    ? {
        asset_type: 'vast',
        delivery_type: 'inline',
        content: vastXml(spot, content),
        vast_version: '4.2',
        duration_ms: durationMs,
      }
    : {
        asset_type: 'daast',
        delivery_type: 'inline',
        content: daastXml(spot, content),
        daast_version: '1.0',
        duration_ms: durationMs,
      };
}
