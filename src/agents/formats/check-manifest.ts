import { Buffer } from 'node:buffer';
import type { CreativeManifest } from './manifest.ts';
import type { Asset, AssetGroup, Format } from './format.ts';

/** One way a manifest falls short of its format, at the manifest field at fault. */
export interface ManifestProblem {
  /** The manifest's key for the asset (`<group>_<index>_<asset_id>` inside a repeatable group, the group's id for its count). */
  asset_id: string;
  /** `creative_manifest.assets.<asset_id>`, with the property at fault when there is one (`.width`, `.content`...). */
  field: string;
  message: string;
}

/** What a format asks of one asset, inside a repeatable group or not. */
type Slot = Pick<Asset, 'asset_id' | 'asset_type' | 'required' | 'requirements'>;

type Given = Record<string, unknown>;

/**
 * How `manifest` falls short of `format`: each required asset missing (a repeatable group's
 * repetitions counted against its min_count and max_count), given as another asset_type than the
 * format's (when the asset states one), or breaking the format's requirements as far as the
 * manifest describes the asset (dimensions, aspect ratio, file format and size, duration, text
 * length, URL protocol and length, HTML/JS/CSS size, VAST/DAAST tag). A property the manifest does
 * not state is not held against it; assets the format does not name are ignored. Empty when the
 * manifest meets the format.
 *
 * Repeatable groups are spelled in the manifest as `<group>_<index>_<asset_id>`, numbered from 0,
 * so a skipped index is a repetition missing its assets.
 */
export function manifestProblems(format: Format, manifest: Pick<CreativeManifest, 'assets'>): ManifestProblem[] {
  const assets: Given = isObject(manifest.assets) ? manifest.assets : {};
  const name = format.format_id.id;
  const problems: ManifestProblem[] = [];
  for (const item of format.assets ?? []) {
    if (item.item_type === 'repeatable_group') problems.push(...groupProblems(name, item, assets));
    else problems.push(...slotProblems(name, item, item.asset_id, assets));
  }
  return problems;
}

function groupProblems(format: string, group: AssetGroup, assets: Given): ManifestProblem[] {
  const id = group.asset_group_id;
  const members = new Set(group.assets.map((a) => a.asset_id));
  let repetitions = 0;
  for (const key of Object.keys(assets)) {
    const match = /^(.+)_(0|[1-9][0-9]*)_(.+)$/.exec(key);
    if (match && match[1] === id && members.has(match[3]!)) repetitions = Math.max(repetitions, Number(match[2]) + 1);
  }
  const problems: ManifestProblem[] = [];
  const example = `${id}_0_${group.assets[0]?.asset_id ?? 'asset'}`;
  const least = group.required || repetitions > 0 ? group.min_count : 0;
  if (repetitions < least) {
    problems.push({
      asset_id: id,
      field: field(id),
      message: `Format ${format} needs at least ${group.min_count} ${id} repetitions (assets named like ${example}, numbered from 0); the manifest has ${repetitions}.`,
    });
  }
  if (repetitions > group.max_count) {
    problems.push({
      asset_id: id,
      field: field(id),
      message: `Format ${format} takes at most ${group.max_count} ${id} repetitions; the manifest has ${repetitions}.`,
    });
  }
  // Repetitions past max_count are refused above as a whole, not asset by asset.
  for (let index = 0; index < Math.min(repetitions, group.max_count); index++) {
    for (const asset of group.assets)
      problems.push(
        ...slotProblems(
          format,
          { ...asset, required: asset.required === true },
          `${id}_${index}_${asset.asset_id}`,
          assets,
        ),
      );
  }
  return problems;
}

function slotProblems(format: string, slot: Slot, key: string, assets: Given): ManifestProblem[] {
  const given = Object.hasOwn(assets, key) ? assets[key] : undefined;
  if (given === undefined) {
    return slot.required
      ? [
          {
            asset_id: key,
            field: field(key),
            message: `Format ${format} requires the ${slot.asset_type} asset ${key}.`,
          },
        ]
      : [];
  }
  if (!isObject(given))
    return [
      { asset_id: key, field: field(key), message: `Asset ${key} must be an object with its asset_type and content.` },
    ];
  if (given['asset_type'] !== undefined && given['asset_type'] !== slot.asset_type) {
    return [
      {
        asset_id: key,
        field: field(key, 'asset_type'),
        message: `Asset ${key} of format ${format} is a ${slot.asset_type}, not a ${String(given['asset_type'])}.`,
      },
    ];
  }
  const check = checks[slot.asset_type];
  if (!check) return [];
  const problems: ManifestProblem[] = [];
  check(new AssetCheck(key, given, slot.requirements ?? {}, problems));
  return problems;
}

/** One asset against its requirements, collecting what it breaks. */
class AssetCheck {
  readonly key: string;
  readonly given: Given;
  readonly requirements: Record<string, unknown>;
  readonly #problems: ManifestProblem[];

  constructor(key: string, given: Given, requirements: Record<string, unknown>, problems: ManifestProblem[]) {
    this.key = key;
    this.given = given;
    this.requirements = requirements;
    this.#problems = problems;
  }

  fail(property: string | undefined, message: string): void {
    this.#problems.push({
      asset_id: this.key,
      field: field(this.key, property),
      message: `Asset ${this.key} ${message}`,
    });
  }

  /** A number the format asks for, or undefined. */
  wants(name: string): number | undefined {
    const value = this.requirements[name];
    return typeof value === 'number' ? value : undefined;
  }

  /** A number the manifest states, or undefined. */
  has(name: string): number | undefined {
    const value = this.given[name];
    return typeof value === 'number' ? value : undefined;
  }

  /** The string the manifest states; a problem (and undefined) when the asset lacks it. */
  text(name: 'url' | 'content'): string | undefined {
    const value = this.given[name];
    if (typeof value === 'string') return value;
    this.fail(name, name === 'url' ? 'has no url.' : 'has no content.');
    return undefined;
  }

  /** A measure against the format's min/max pair: exact when they are equal. */
  within(
    property: string,
    actual: number | undefined,
    min: number | undefined,
    max: number | undefined,
    describe: (n: number) => string,
  ): void {
    if (actual === undefined) return;
    if (min !== undefined && min === max && actual !== min)
      this.fail(property, `is ${describe(actual)}; the format wants exactly ${describe(min)}.`);
    else if (min !== undefined && actual < min)
      this.fail(property, `is ${describe(actual)}; the format wants at least ${describe(min)}.`);
    else if (max !== undefined && actual > max)
      this.fail(property, `is ${describe(actual)}; the format wants at most ${describe(max)}.`);
  }
}

const checks: Record<string, (asset: AssetCheck) => void> = {
  image(asset) {
    asset.text('url');
    dimensions(asset);
    fileFormat(asset, 'formats', 'format', imageFormats);
    fileSize(asset);
  },
  video(asset) {
    asset.text('url');
    dimensions(asset);
    duration(asset);
    fileFormat(asset, 'containers', 'container_format', videoContainers);
    fileSize(asset);
  },
  audio(asset) {
    asset.text('url');
    duration(asset);
    fileFormat(asset, 'formats', 'container_format', audioFormats);
    fileSize(asset);
  },
  text: textLength,
  markdown: textLength,
  html: codeSize,
  javascript: codeSize,
  css: codeSize,
  url(asset) {
    const url = asset.text('url');
    if (url === undefined) return;
    const scheme = schemeOf(url);
    const protocols = asset.requirements['protocols'];
    if (scheme === undefined) asset.fail('url', `is not an absolute URL: ${JSON.stringify(url)}.`);
    else if (Array.isArray(protocols) && !protocols.includes(scheme))
      asset.fail('url', `uses ${scheme}; the format accepts ${protocols.join(' or ')} only.`);
    asset.within('url', url.length, undefined, asset.wants('max_length'), (n) => `${n} characters long`);
  },
  vast: (asset) => tag(asset, 'VAST'),
  daast: (asset) => tag(asset, 'DAAST'),
};

function dimensions(asset: AssetCheck): void {
  const unit = asset.requirements['unit'];
  // Print sizes in inches or millimetres say nothing about an image's pixels.
  if (unit !== undefined && unit !== 'px') return;
  const pixels = (n: number) => `${n} pixels`;
  asset.within(
    'width',
    asset.has('width'),
    asset.wants('min_width'),
    asset.wants('max_width'),
    (n) => `${pixels(n)} wide`,
  );
  asset.within(
    'height',
    asset.has('height'),
    asset.wants('min_height'),
    asset.wants('max_height'),
    (n) => `${pixels(n)} high`,
  );
  const ratio = asset.requirements['aspect_ratio'];
  const width = asset.has('width');
  const height = asset.has('height');
  if (typeof ratio !== 'string' || width === undefined || height === undefined || height === 0) return;
  const [w, h] = ratio.split(':').map(Number) as [number, number];
  // 1200x628 is the 1.91:1 everyone means: a percent either way.
  if (Math.abs(width / height / (w / h) - 1) > 0.01)
    asset.fail(undefined, `is ${width}x${height}, not of the ${ratio} aspect ratio the format wants.`);
}

function duration(asset: AssetCheck): void {
  asset.within(
    'duration_ms',
    asset.has('duration_ms'),
    asset.wants('min_duration_ms'),
    asset.wants('max_duration_ms'),
    (ms) => `${ms / 1000} s long`,
  );
}

function fileSize(asset: AssetCheck): void {
  const max = asset.wants('max_file_size_kb');
  asset.within(
    'file_size_bytes',
    asset.has('file_size_bytes'),
    undefined,
    max === undefined ? undefined : max * 1024,
    (bytes) => `${bytes} bytes`,
  );
}

function textLength(asset: AssetCheck): void {
  const content = asset.text('content');
  if (content === undefined) return;
  // Characters as people count them, not UTF-16 code units.
  asset.within(
    'content',
    [...content].length,
    asset.wants('min_length'),
    asset.wants('max_length'),
    (n) => `${n} characters long`,
  );
}

function codeSize(asset: AssetCheck): void {
  const content = asset.text('content');
  const max = asset.wants('max_file_size_kb');
  if (content === undefined || max === undefined) return;
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > max * 1024)
    asset.fail('content', `is ${bytes} bytes; the format wants at most ${max} KB (${max * 1024} bytes).`);
}

/** A VAST or DAAST tag: a URL that answers the XML, or the XML inline, whose root element is `root`. */
function tag(asset: AssetCheck, root: 'VAST' | 'DAAST'): void {
  const { url, content, delivery_type: delivery } = asset.given;
  const hasUrl = typeof url === 'string' && url.trim() !== '';
  const hasContent = typeof content === 'string' && content.trim() !== '';
  if (delivery === 'url' && !hasUrl) asset.fail('url', `is delivered by url but has none.`);
  else if (delivery === 'inline' && !hasContent) asset.fail('content', `is delivered inline but has no content.`);
  else if (!hasUrl && !hasContent)
    asset.fail(undefined, `has neither a url answering ${root} XML nor the ${root} XML inline as content.`);
  if (hasUrl && !['http', 'https'].includes(schemeOf(url) ?? ''))
    asset.fail('url', `is not an http or https URL: ${JSON.stringify(url)}.`);
  if (hasContent) {
    const found = rootElement(content);
    if (found !== root)
      asset.fail(
        'content',
        `is not ${root} XML: ${found === undefined ? 'it has no root element' : `its root element is <${found}>`}.`,
      );
  }
  duration(asset);
}

/** The name of an XML document's root element, past its declaration, comments and doctype. */
function rootElement(xml: string): string | undefined {
  let rest = xml.replace(/^\uFEFF/, '');
  for (;;) {
    rest = rest.trimStart();
    const skip = rest.startsWith('<?')
      ? '?>'
      : rest.startsWith('<!--')
        ? '-->'
        : rest.startsWith('<!')
          ? '>'
          : undefined;
    if (skip === undefined) break;
    const end = rest.indexOf(skip);
    if (end < 0) return undefined;
    rest = rest.slice(end + skip.length);
  }
  // A namespace prefix (`<v:VAST>`) does not change what the element is.
  return /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)(?=[\s/>])/.exec(rest)?.[1];
}

// The file formats a URL's extension tells, as the requirements name them.
const imageFormats: Record<string, string> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  svg: 'svg',
  avif: 'avif',
  tif: 'tiff',
  tiff: 'tiff',
  pdf: 'pdf',
  eps: 'eps',
};
const videoContainers: Record<string, string> = {
  mp4: 'mp4',
  m4v: 'mp4',
  webm: 'webm',
  mov: 'mov',
  avi: 'avi',
  mkv: 'mkv',
};
const audioFormats: Record<string, string> = {
  mp3: 'mp3',
  aac: 'aac',
  m4a: 'aac',
  wav: 'wav',
  ogg: 'ogg',
  oga: 'ogg',
  flac: 'flac',
};

/**
 * The file's format against the format's list: the one the manifest states, else the one its URL's
 * extension tells. A URL without a known extension (a CDN's opaque path) is not held against it.
 */
function fileFormat(asset: AssetCheck, requirement: string, stated: string, known: Record<string, string>): void {
  const accepted = asset.requirements[requirement];
  if (!Array.isArray(accepted)) return;
  const accepts = new Set(accepted.map((f) => known[String(f)] ?? String(f)));
  const declared = asset.given[stated];
  if (typeof declared === 'string') {
    const format = declared.toLowerCase();
    if (!accepts.has(known[format] ?? format))
      asset.fail(stated, `is ${declared}; the format accepts ${accepted.join(', ')}.`);
    return;
  }
  const url = asset.given['url'];
  const extension = typeof url === 'string' ? extensionOf(url) : undefined;
  const format = extension === undefined ? undefined : known[extension];
  if (format !== undefined && !accepts.has(format))
    asset.fail('url', `is a .${extension} file; the format accepts ${accepted.join(', ')}.`);
}

function extensionOf(url: string): string | undefined {
  const path = url.split(/[?#]/, 1)[0]!;
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : undefined;
}

function schemeOf(url: string): string | undefined {
  return /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
}

function field(key: string, property?: string): string {
  return `creative_manifest.assets.${key}${property === undefined ? '' : `.${property}`}`;
}

function isObject(value: unknown): value is Given {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
