import type { Format } from '../../formats/index.ts';
import type { CreativeManifest, ManifestAsset } from '../../formats/index.ts';

/** One asset of the manifest with what the format says it is for. */
export interface Slot {
  id: string;
  type: string;
  /** The format's asset_role, else the url requirements' role, else none (an asset the format does not list). */
  role: string;
  asset: ManifestAsset;
}

/**
 * The manifest's assets, each typed and given its role by the format's entry of the same
 * asset_id; assets the format does not list follow with their own asset_type, so a renderer
 * still finds an image or a tag in a manifest for a format it only half knows.
 */
export function slotsOf(format: Format, manifest: CreativeManifest): Slot[] {
  const given = isRecord(manifest.assets) ? manifest.assets : {};
  const slots: Slot[] = [];
  const seen = new Set<string>();
  for (const entry of format.assets ?? []) {
    if (entry.item_type !== 'individual') continue;
    const asset = given[entry.asset_id];
    if (!isRecord(asset)) continue;
    seen.add(entry.asset_id);
    const requirementsRole = typeof entry.requirements?.role === 'string' ? entry.requirements.role : '';
    slots.push({ id: entry.asset_id, type: entry.asset_type, role: entry.asset_role ?? requirementsRole, asset });
  }
  for (const [id, asset] of Object.entries(given)) {
    if (seen.has(id) || !isRecord(asset) || typeof asset.asset_type !== 'string') continue;
    slots.push({ id, type: asset.asset_type, role: '', asset });
  }
  return slots;
}

const isRecord = (value: unknown): value is Record<string, ManifestAsset> & ManifestAsset =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first slot whose role or asset_id is one of `names`, of one of `types` when given. */
export function byRole(slots: readonly Slot[], names: readonly string[], types?: readonly string[]): Slot | undefined {
  return slots.find(
    (s) => (types === undefined || types.includes(s.type)) && (names.includes(s.role) || names.includes(s.id)),
  );
}

export const roles = {
  headline: ['headline', 'title', 'heading'],
  body: ['body_text', 'body', 'description', 'body_copy'],
  sponsor: ['advertiser_name', 'sponsor_name', 'sponsor', 'brand_name', 'business_name'],
  cta: ['call_to_action', 'cta', 'cta_text'],
  logo: ['logo', 'brand_logo', 'icon'],
  backup: ['backup_image', 'fallback_image', 'backup', 'fallback'],
  clickthrough: ['clickthrough', 'landing_page', 'click_url', 'clickthrough_url'],
} as const;

/** The clickthrough: a url asset whose role says so, or whose own url_type does. */
export function clickthroughOf(slots: readonly Slot[]): Slot | undefined {
  return (
    byRole(slots, roles.clickthrough, ['url']) ??
    slots.find((s) => s.type === 'url' && s.asset.url_type === 'clickthrough')
  );
}

/** The main image: one that is not a logo or a backup. */
export function heroImageOf(slots: readonly Slot[]): Slot | undefined {
  const secondary: readonly string[] = [...roles.logo, ...roles.backup];
  return slots.find((s) => s.type === 'image' && !secondary.includes(s.role) && !secondary.includes(s.id));
}

/** How a creative is shown, decided by what it is made of rather than by the format's id. */
export type Kind = 'video' | 'audio' | 'html5' | 'native' | 'image' | 'frame';

export function kindOf(format: Format, slots: readonly Slot[]): Kind {
  // What the format declares counts as much as what the manifest brings: a native manifest
  // missing its headline is still a native card, with a gap where the headline goes.
  const declared = (format.assets ?? []).filter((a) => a.item_type === 'individual');
  const has = (...types: string[]) =>
    slots.some((s) => types.includes(s.type)) || declared.some((a) => types.includes(a.asset_type));
  const texts: readonly string[] = [...roles.headline, ...roles.body];
  if (format.type === 'video' || has('video', 'vast')) return 'video';
  if (format.type === 'audio' || has('audio', 'daast')) return 'audio';
  if (has('html', 'javascript')) return 'html5';
  if (
    byRole(slots, texts, ['text']) ||
    declared.some((a) => a.asset_type === 'text' && (texts.includes(a.asset_role ?? '') || texts.includes(a.asset_id)))
  )
    return 'native';
  if (has('image')) return 'image';
  return 'frame';
}
