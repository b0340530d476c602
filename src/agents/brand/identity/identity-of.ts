import type { BrandRecord } from '../../../protocol/brand-identity.ts';
import { isRecord, records, strings } from '../../../protocol/json-values.ts';

/** get-brand-identity-request.json's `fields`: the sections a caller may ask for. */
export const identityFields = [
  'description',
  'industries',
  'keller_type',
  'logos',
  'colors',
  'fonts',
  'visual_guidelines',
  'tone',
  'tagline',
  'voice_synthesis',
  'assets',
  'rights',
] as const;
export type IdentityField = (typeof identityFields)[number];

/** What only a caller with rights to the brand sees (the response schema's "authorized callers" sections). */
export const authorizedFields: ReadonlySet<IdentityField> = new Set([
  'visual_guidelines',
  'tone',
  'voice_synthesis',
  'assets',
  'rights',
]);

type Json = Record<string, unknown>;

const kellerTypes = new Set(['master', 'sub_brand', 'endorsed', 'independent']);
const sixDigitHex = /^#[0-9A-Fa-f]{6}$/;

/**
 * Each section the registry's record of a brand holds, in get-brand-identity-response.json's
 * shape: what its manifest says (brand.json's as crawled, an enrichment, or a community save) and
 * its architecture from the registry's resolution. A section the record does not hold is absent.
 */
export function sectionsOf(record: BrandRecord): Partial<Record<IdentityField, unknown>> {
  const m = record.manifest;
  const sections: Partial<Record<IdentityField, unknown>> = {};
  if (typeof m['description'] === 'string' && m['description'].trim() !== '') sections.description = m['description'];
  const industries = strings(m['industries']).filter((s) => s.trim() !== '');
  if (industries.length > 0) sections.industries = industries;
  if (kellerTypes.has(record.kellerType)) sections.keller_type = record.kellerType;
  const logos = records(m['logos']).filter((l) => typeof l['url'] === 'string' && /^https?:\/\//i.test(l['url']));
  if (logos.length > 0) sections.logos = logos;
  const colors = colorsOf(m['colors']);
  if (Object.keys(colors).length > 0) sections.colors = colors;
  if (isRecord(m['fonts'])) sections.fonts = m['fonts'];
  const tone = toneOf(m['tone']);
  if (tone) sections.tone = tone;
  if (typeof m['tagline'] === 'string' ? m['tagline'].trim() !== '' : Array.isArray(m['tagline']))
    sections.tagline = m['tagline'];
  return sections;
}

/** The manifest's colours (`[{hex, type}]`) as brand.json's palette: each role one colour, or several. */
function colorsOf(value: unknown): Record<string, string | string[]> {
  const byRole = new Map<string, string[]>();
  for (const c of records(value)) {
    if (typeof c['hex'] !== 'string' || !sixDigitHex.test(c['hex'])) continue;
    const role = typeof c['type'] === 'string' && c['type'] !== '' ? c['type'] : 'primary';
    byRole.set(role, [...(byRole.get(role) ?? []), c['hex']]);
  }
  return Object.fromEntries([...byRole].map(([role, hexes]) => [role, hexes.length === 1 ? hexes[0]! : hexes]));
}

/** brand.json's tone: an object of voice and rules, or (older files) the voice alone. */
function toneOf(value: unknown): Json | undefined {
  if (typeof value === 'string' && value.trim() !== '') return { voice: value };
  return isRecord(value) ? value : undefined;
}
