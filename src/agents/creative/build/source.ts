import type { CreativeManifest, Format, ManifestAsset } from '../../formats/index.ts';
import { byRole, clickthroughOf, heroImageOf, roles, slotsOf, type Slot } from '../render/assets.ts';
import type { Copy } from './copy.ts';

/** What a manifest already holds that a build carries over into the target format. */
export interface Source {
  copy: Copy;
  click?: string;
  impression?: string;
  /** The main picture (a banner's image, an HTML5 banner's backup), to re-lay. */
  picture?: string;
  logo?: string;
  video?: ManifestAsset;
  audio?: ManifestAsset;
  vast?: ManifestAsset;
  daast?: ManifestAsset;
}

/**
 * The manifest's pieces by what they are for: its format's roles when the format is known, else
 * each asset's own asset_type and the usual asset ids (`headline`, `logo`, `click_url`...).
 */
export function readSource(manifest: CreativeManifest | undefined, format: Format | undefined): Source {
  if (!manifest) return { copy: {} };
  const known: Format = format ?? {
    format_id: manifest.format_id,
    name: manifest.format_id?.id ?? 'creative',
    assets: [],
  };
  const slots = slotsOf(known, manifest);
  const text = (names: readonly string[]) => stringOf(byRole(slots, names, ['text'])?.asset.content);
  const source: Source = {
    copy: {
      headline: text(roles.headline),
      body: text(roles.body),
      sponsor: text(roles.sponsor),
      cta: text(roles.cta),
    },
  };
  const set = <K extends keyof Source>(key: K, value: Source[K] | undefined) => {
    if (value !== undefined) source[key] = value;
  };
  set('click', stringOf(clickthroughOf(slots)?.asset.url));
  set(
    'impression',
    stringOf(
      slots.find(
        (s) =>
          s.type === 'url' &&
          (s.role === 'impression_tracker' || s.role === 'third_party_tracking' || s.id === 'impression_tracker'),
      )?.asset.url,
    ),
  );
  set('picture', stringOf((heroImageOf(slots) ?? byRole(slots, roles.backup, ['image']))?.asset.url));
  set('logo', stringOf(byRole(slots, roles.logo, ['image'])?.asset.url));
  set('video', withUrl(slots, 'video'));
  set('audio', withUrl(slots, 'audio'));
  set('vast', slots.find((s) => s.type === 'vast')?.asset);
  set('daast', slots.find((s) => s.type === 'daast')?.asset);
  return source;
}

const stringOf = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

const withUrl = (slots: readonly Slot[], type: string) =>
  slots.find((s) => s.type === type && stringOf(s.asset.url) !== undefined)?.asset;

/** Whether the manifest holds anything a build could carry over. */
export const hasContent = (source: Source): boolean =>
  Object.values(source.copy).some((t) => t !== undefined) ||
  [source.picture, source.logo, source.video, source.audio, source.vast, source.daast].some((v) => v !== undefined);
