import { AgentError } from '../../../protocol/errors.ts';
import type { CreativeManifest } from '../../formats/index.ts';
import { offeringFromBrief } from './brief.ts';
import type { Offering } from './offering.ts';
import { brandDomainOf, type KnownBrand } from './known-brand.ts';
import { normalHex, type BrandColors } from './palette.ts';

/** brand_manifest as generation reads it (the spec's brand manifest: name, url, colors; brand.json's logos). */
export interface Brand {
  name?: string;
  url?: string;
  colors: BrandColors;
  logos: Logo[];
}

export interface Logo {
  url: string;
  orientation?: string;
  background?: string;
  variant?: string;
}

/** What a minimal manifest promotes: the brand, and its offerings in the buyer's order. */
export interface Promoted {
  brand: Brand;
  offerings: Offering[];
}

/** The manifest asset that carries them (agent-tasks spec section 2, "For generation"). */
export const promotedKey = 'promoted_offerings';

const field = (path: string) => `creative_manifest.assets.${promotedKey}${path}`;

/**
 * The brand and offerings a manifest promotes: `assets.promoted_offerings` with `brand_manifest`
 * and `inline_offerings[]` as the spec writes them, and the offerings of a `catalog` asset of type
 * `offering` (the published schemas' way of carrying them). The request's `brand` reference stands
 * for a brand the manifest does not describe: what the registry knows of it (`known`: name, site,
 * colours, logos) fills what brand_manifest leaves out, and its domain is the brand's site when
 * nothing else is. Undefined when the manifest promotes nothing (a transformation). Colours that
 * are not hex colours are refused.
 */
export function readPromoted(
  manifest: CreativeManifest | undefined,
  brandRef: unknown,
  known?: KnownBrand,
): Promoted | undefined {
  const assets = isObject(manifest?.assets) ? manifest.assets : {};
  const promoted = isObject(assets[promotedKey]) ? (assets[promotedKey] as Record<string, unknown>) : undefined;
  const offerings: Offering[] = [];
  const inline = promoted?.['inline_offerings'];
  if (inline !== undefined && !Array.isArray(inline))
    throw new AgentError('VALIDATION_ERROR', 'inline_offerings is a list of offerings ({name, description, ...}).', {
      field: field('.inline_offerings'),
    });
  for (const item of Array.isArray(inline) ? inline : []) if (isObject(item)) offerings.push(offeringOf(item));
  for (const asset of Object.values(assets)) {
    if (
      isObject(asset) &&
      asset['asset_type'] === 'catalog' &&
      asset['type'] === 'offering' &&
      Array.isArray(asset['items'])
    ) {
      for (const item of asset['items']) if (isObject(item)) offerings.push(offeringOf(item));
    }
  }
  const described = promoted?.['brand_manifest'];
  if (described !== undefined && !isObject(described))
    throw new AgentError('VALIDATION_ERROR', 'brand_manifest is an object: {name, url, colors, logos}.', {
      field: field('.brand_manifest'),
    });
  if (!promoted && offerings.length === 0) return undefined;
  return { brand: withReference(brandOf(isObject(described) ? described : {}), brandRef, known), offerings };
}

/**
 * What a brief alone promotes (build_creative with a `message` and no manifest, spec: pure
 * generation): the subject the brief names (`offeringFromBrief`), described by the brand's own
 * words where the registry knows them (its tagline, else its description), for the brand the
 * request references, drawn as the registry knows it. Undefined when the brief names no subject
 * and no brand is referenced: there is nothing to promote.
 */
export function promotedByBrief(
  message: string | undefined,
  brandRef: unknown,
  known?: KnownBrand,
): Promoted | undefined {
  const subject = offeringFromBrief(message);
  const domain = brandDomainOf(brandRef);
  if (!subject && !domain && !known) return undefined;
  const words = known?.tagline ?? known?.description;
  const offering: Offering = { ...subject, ...(words ? { description: words } : {}) };
  return {
    brand: withReference({ colors: {}, logos: [] }, brandRef, known),
    offerings: Object.keys(offering).length > 0 ? [offering] : [],
  };
}

/** A brand filled in from what the registry knows of the referenced one, then from the reference's domain. */
function withReference(brand: Brand, brandRef: unknown, known: KnownBrand | undefined): Brand {
  if (known) {
    brand.name ??= known.name;
    brand.url ??= known.url;
    for (const role of ['primary', 'secondary', 'accent'] as const) {
      const hex =
        brand.colors[role] === undefined && known.colors[role] !== undefined
          ? normalHex(known.colors[role])
          : undefined;
      if (hex) brand.colors[role] = hex;
    }
    if (brand.logos.length === 0) brand.logos.push(...known.logos.map((l) => ({ url: l.url })));
  }
  const domain = brandDomainOf(brandRef);
  if (domain) {
    brand.url ??= `https://${domain}/`;
    brand.name ??= domain;
  }
  return brand;
}

function offeringOf(item: Record<string, unknown>): Offering {
  const offering: Offering = {};
  for (const key of ['name', 'description', 'tagline', 'landing_url', 'checkout_url'] as const) {
    const value = item[key];
    if (typeof value === 'string' && value.trim() !== '') offering[key] = value.trim();
  }
  return offering;
}

function brandOf(described: Record<string, unknown>): Brand {
  const brand: Brand = { colors: {}, logos: [] };
  if (typeof described['name'] === 'string' && described['name'].trim() !== '') brand.name = described['name'].trim();
  if (typeof described['url'] === 'string' && described['url'].trim() !== '') brand.url = described['url'].trim();
  const colors = described['colors'];
  if (isObject(colors)) {
    for (const role of ['primary', 'secondary', 'accent'] as const) {
      // brand.json allows a list of values per role: the first is the role's main one.
      const raw = Array.isArray(colors[role]) ? (colors[role] as unknown[])[0] : colors[role];
      if (raw === undefined) continue;
      const hex = typeof raw === 'string' ? normalHex(raw) : undefined;
      if (!hex)
        throw new AgentError(
          'VALIDATION_ERROR',
          `The brand's ${role} colour ${JSON.stringify(raw)} is not a hex colour (#rrggbb).`,
          { field: field(`.brand_manifest.colors.${role}`) },
        );
      brand.colors[role] = hex;
    }
  }
  const logos = described['logos'];
  for (const logo of Array.isArray(logos) ? logos : []) {
    if (typeof logo === 'string') brand.logos.push({ url: logo });
    else if (isObject(logo) && typeof logo['url'] === 'string') {
      const entry: Logo = { url: logo['url'] };
      for (const key of ['orientation', 'background', 'variant'] as const)
        if (typeof logo[key] === 'string') entry[key] = logo[key];
      brand.logos.push(entry);
    }
  }
  return brand;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
