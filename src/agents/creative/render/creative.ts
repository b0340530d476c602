import type { Format } from '../../formats/index.ts';
import type { CreativeManifest, ManifestAsset } from '../../formats/index.ts';
import { byRole, clickthroughOf, heroImageOf, kindOf, roles, slotsOf, type Kind, type Slot } from './assets.ts';
import { escapeMarkup } from './escape.ts';
import { macrosFor, type Macros } from './macros.ts';
import { naturalNativeHeight, type NativeContent } from './native-layout.ts';
import { safeUrl } from './safe-url.ts';
import { previewSize, type Size } from './size.ts';
import { playableFile, readAdTag } from './vast.ts';

export interface RenderOptions {
  /** Values for `{MACRO}`s by name (universal-macro.json's, or the format's own). */
  macros?: Record<string, string>;
  /** The box of a responsive format; a fixed format keeps its own size. */
  size?: Size;
}

export interface ImageRef {
  url: string;
  alt: string;
}

/** What a player is given: a file it plays, an ad tag it would have to fetch and run, or nothing playable. */
export type Media =
  { kind: 'file'; url: string } | { kind: 'tag'; url: string; standard: string } | { kind: 'none'; note: string };

/** A creative as a preview shows it: macros filled in, every URL vetted, text as given. */
export interface Creative {
  kind: Kind;
  name: string;
  width: number;
  height: number;
  fixed: boolean;
  click?: string;
  image?: ImageRef;
  backup?: ImageRef;
  logo?: ImageRef;
  text: Omit<NativeContent, 'hasImage' | 'hasLogo'>;
  /** An HTML5 creative as the document of its sandboxed frame, or the address it is served from. */
  markup?: { document: string } | { url: string };
  media?: Media;
}

export function readCreative(format: Format, manifest: CreativeManifest, options: RenderOptions = {}): Creative {
  const { slots, kind, text, hero, logo, size } = layoutOf(format, manifest, options);
  const macros = macrosFor(manifest, size, options.macros, kind === 'video');
  const fill = (s: string | undefined) => (s === undefined ? undefined : macros.text(s));
  const creative: Creative = {
    kind,
    name: typeof format.name === 'string' ? format.name : format.format_id.id,
    ...size,
    text: { headline: fill(text.headline), body: fill(text.body), sponsor: fill(text.sponsor), cta: fill(text.cta) },
  };
  const click = link(clickthroughOf(slots)?.asset.url, macros);
  if (click) creative.click = click;
  const image = imageOf(hero, macros, creative.text.headline ?? creative.name);
  if (image) creative.image = image;
  const backup = imageOf(byRole(slots, roles.backup, ['image']), macros, creative.name);
  if (backup) creative.backup = backup;
  const logoImage = imageOf(logo, macros, '');
  if (logoImage) creative.logo = logoImage;
  if (kind === 'html5') creative.markup = markupOf(slots, macros);
  if (kind === 'video') creative.media = mediaOf(slots, 'video', 'vast', macros);
  if (kind === 'audio') creative.media = mediaOf(slots, 'audio', 'daast', macros);
  return creative;
}

/** The size a creative's page takes, without reading the rest of it (a hosted preview's page is built when it is opened). */
export const sizeOf = (format: Format, manifest: CreativeManifest, options: RenderOptions = {}): Size => {
  const { width, height } = layoutOf(format, manifest, options).size;
  return { width, height };
};

/** What fixes a creative's size: its kind, its texts and pictures (a native card is as tall as they need). */
function layoutOf(format: Format, manifest: CreativeManifest, options: RenderOptions) {
  const slots = slotsOf(format, manifest);
  const kind = kindOf(format, slots);
  const text = {
    headline: contentOf(byRole(slots, roles.headline, ['text'])),
    body: contentOf(byRole(slots, roles.body, ['text'])),
    sponsor: contentOf(byRole(slots, roles.sponsor, ['text'])),
    cta: contentOf(byRole(slots, roles.cta, ['text'])),
  };
  const hero = heroImageOf(slots);
  const logo = byRole(slots, roles.logo, ['image']);
  const size = previewSize(format, manifest, kind, options.size, (width) =>
    naturalNativeHeight({ ...text, hasImage: hero !== undefined, hasLogo: logo !== undefined }, width),
  );
  return { slots, kind, text, hero, logo, size };
}

const contentOf = (slot: Slot | undefined) =>
  typeof slot?.asset.content === 'string' ? slot.asset.content : undefined;

const link = (url: unknown, macros: Macros) => (typeof url === 'string' ? safeUrl(macros.url(url)) : undefined);

function imageOf(slot: Slot | undefined, macros: Macros, fallbackAlt: string): ImageRef | undefined {
  const url = typeof slot?.asset.url === 'string' ? safeUrl(macros.url(slot.asset.url), { image: true }) : undefined;
  if (!url) return undefined;
  const alt = typeof slot?.asset.alt_text === 'string' ? macros.text(slot.asset.alt_text) : fallbackAlt;
  return { url, alt };
}

/**
 * The frame's document: the html asset, made a whole document when it is a fragment, or a
 * javascript tag as the one script of an empty page. Macro values go in URL-encoded: in a tag they
 * nearly always stand in a URL, and encoded they cannot break out of an attribute or a string.
 */
function markupOf(slots: readonly Slot[], macros: Macros): Creative['markup'] {
  const html = slots.find((s) => s.type === 'html');
  if (typeof html?.asset.content === 'string') {
    const content = macros.url(html.asset.content);
    return { document: /<html[\s>]/i.test(content) ? content : page(content) };
  }
  const frameUrl = link(html?.asset.url, macros);
  if (frameUrl) return { url: frameUrl };
  const script = slots.find((s) => s.type === 'javascript');
  if (typeof script?.asset.content === 'string')
    return {
      document: page(`<script>${macros.url(script.asset.content).replace(/<\/(script)/gi, '<\\/$1')}</script>`),
    };
  const scriptUrl = link(script?.asset.url, macros);
  return { document: page(scriptUrl ? `<script src="${escapeMarkup(scriptUrl)}"></script>` : '') };
}

const page = (body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><style>html,body{margin:0;padding:0;overflow:hidden}</style></head><body>${body}</body></html>`;

function mediaOf(slots: readonly Slot[], kind: 'video' | 'audio', tagType: 'vast' | 'daast', macros: Macros): Media {
  const file = link(slots.find((s) => s.type === kind && typeof s.asset.url === 'string')?.asset.url, macros);
  if (file) return { kind: 'file', url: file };
  const tag: ManifestAsset | undefined = slots.find((s) => s.type === tagType)?.asset;
  const standard = tagType.toUpperCase();
  if (!tag) return { kind: 'none', note: `No ${kind} file or ${standard} tag in the manifest.` };
  if (typeof tag.content === 'string' && tag.delivery_type !== 'url') {
    const read = readAdTag(tag.content);
    const played = playableFile(read.mediaFiles, kind, (url) => link(url, macros));
    if (played) return { kind: 'file', url: played };
    const wrapper = link(read.wrapperUrl, macros);
    if (wrapper) return { kind: 'tag', url: wrapper, standard };
    return { kind: 'none', note: `The inline ${standard} has no media file a browser plays.` };
  }
  const tagUrl = link(tag.url, macros);
  return tagUrl
    ? { kind: 'tag', url: tagUrl, standard }
    : { kind: 'none', note: `The ${standard} tag has no http(s) URL.` };
}
