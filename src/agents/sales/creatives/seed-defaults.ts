import { AgentError } from '../../../protocol/errors.ts';
import type { Asset, Format, FormatId } from '../../formats/index.ts';
import type { Product } from '../catalog/index.ts';

type Fixture = Record<string, unknown>;

/** The format a seeded creative is of when its fixture names none and some product takes it. */
const preferredFormatId = 'display_300x250';
/** Where placeholder assets point: a reserved name (RFC 2606), never fetched. */
const placeholderOrigin = 'https://placeholder.example';

/**
 * A seed_creative fixture with what it leaves out filled in, the rest as given: its name (the
 * creative's id), its format (the 300x250 banner when a product takes it, else the first product's
 * first format; a format_id without agent_url, or a bare id, is this seller's format of that id)
 * and, with no assets, a placeholder for each asset the format requires. Assets given as a list of
 * `{type | asset_type, ...}` items (as the protocol's own example writes them) are keyed by the
 * format's first asset of each type. Whatever is filled in is then checked as any creative.
 */
export function creativeFixture(
  creativeId: string,
  fixture: Fixture,
  formats: readonly Format[],
  products: readonly Product[],
): Fixture {
  const format = formatOf(fixture['format_id'], formats, products);
  const filled: Fixture = {
    ...fixture,
    name: fixture['name'] ?? creativeId,
    ...(format ? { format_id: format.format_id } : {}),
  };
  if (!format) return filled;
  const given = fixture['assets'];
  if (given === undefined) filled['assets'] = placeholders(creativeId, format, {});
  else if (Array.isArray(given))
    filled['assets'] = placeholders(creativeId, format, keyedAssets(creativeId, given, format));
  return filled;
}

/** The seller's format the fixture means, or undefined to leave its format_id as given (and checked). */
function formatOf(given: unknown, formats: readonly Format[], products: readonly Product[]): Format | undefined {
  if (given === undefined) {
    const taken = products.flatMap((p) => p.format_ids);
    const wanted: FormatId | undefined = taken.find((f) => f.id === preferredFormatId) ?? taken[0];
    return wanted && formats.find((f) => f.format_id.agent_url === wanted.agent_url && f.format_id.id === wanted.id);
  }
  const object = typeof given === 'object' && given !== null && !Array.isArray(given) ? (given as Fixture) : undefined;
  if (object && typeof object['agent_url'] === 'string')
    return formats.find((f) => f.format_id.agent_url === object['agent_url'] && f.format_id.id === object['id']);
  const id = typeof given === 'string' ? given : object?.['id'];
  if (typeof id !== 'string') return undefined;
  const format = formats.findLast((f) => f.format_id.id === id);
  if (!format)
    throw new AgentError('VALIDATION_ERROR', `Format ${id} is not one this seller takes.`, {
      field: 'fixture.format_id',
      suggestion: 'list_creative_formats lists them.',
    });
  return format;
}

const individual = (format: Format): Asset[] =>
  (format.assets ?? []).filter((a): a is Asset => a.item_type === 'individual');

/** The assets given, and a stand-in for each other asset the format requires, of the size and length its requirements ask. */
function placeholders(creativeId: string, format: Format, given: Fixture): Fixture {
  const missing = individual(format).filter((a) => a.required && given[a.asset_id] === undefined);
  return {
    ...given,
    ...Object.fromEntries(missing.map((a) => [a.asset_id, placeholder(creativeId, a, renderOf(format))])),
  };
}

const renderOf = (format: Format) => format.renders?.[0]?.dimensions;

function placeholder(
  creativeId: string,
  asset: Asset,
  render: { width?: number; height?: number } | undefined,
): Fixture {
  const req = (asset.requirements ?? {}) as Record<string, unknown>;
  const num = (...keys: string[]) => keys.map((k) => req[k]).find((v): v is number => typeof v === 'number');
  const url = (ext: string) => `${placeholderOrigin}/${encodeURIComponent(creativeId)}/${asset.asset_id}.${ext}`;
  const min = num('min_duration_ms');
  const max = num('max_duration_ms');
  const duration = min !== undefined && max !== undefined ? Math.round((min + max) / 2) : (min ?? max ?? 15_000);
  switch (asset.asset_type) {
    case 'image':
      return {
        asset_type: 'image',
        url: url('png'),
        width: num('min_width', 'max_width') ?? render?.width ?? 300,
        height: num('min_height', 'max_height') ?? render?.height ?? 250,
      };
    case 'video':
      return {
        asset_type: 'video',
        url: url('mp4'),
        width: num('min_width', 'max_width') ?? 1920,
        height: num('min_height', 'max_height') ?? 1080,
        duration_ms: duration,
      };
    case 'audio':
      return { asset_type: 'audio', url: url('mp3'), duration_ms: duration };
    case 'text':
      return { asset_type: 'text', content: 'Test'.slice(0, num('max_length') ?? 4) };
    case 'url':
      return { asset_type: 'url', url: `${placeholderOrigin}/landing` };
    case 'html':
      return { asset_type: 'html', content: '<div>Test creative</div>' };
    case 'vast':
    case 'daast':
      return { asset_type: asset.asset_type, delivery_type: 'url', url: url('xml') };
    default:
      throw new AgentError(
        'VALIDATION_ERROR',
        `This seller has no placeholder for a ${asset.asset_type} asset; give fixture.assets.${asset.asset_id}.`,
        { field: `fixture.assets.${asset.asset_id}` },
      );
  }
}

/** A list of typed assets keyed by the format's assets of those types, in order, what each leaves out taken from a placeholder. */
function keyedAssets(creativeId: string, list: unknown[], format: Format): Fixture {
  const free = individual(format);
  const keyed: Fixture = {};
  for (const [i, item] of list.entries()) {
    const object = typeof item === 'object' && item !== null ? (item as Fixture) : {};
    const { type, ...rest } = object;
    const assetType = object['asset_type'] ?? type;
    const slot = free.find((a) => a.asset_type === assetType && keyed[a.asset_id] === undefined);
    if (!slot)
      throw new AgentError(
        'VALIDATION_ERROR',
        `fixture.assets[${i}]: format ${format.format_id.id} has no ${String(assetType)} asset left to key it by.`,
        { field: `fixture.assets[${i}]` },
      );
    keyed[slot.asset_id] = { ...placeholderOr(creativeId, slot, format), ...rest, asset_type: assetType };
  }
  return keyed;
}

/** The placeholder of an asset, or nothing for a type that has none (the item must then be whole). */
function placeholderOr(creativeId: string, asset: Asset, format: Format): Fixture {
  try {
    return placeholder(creativeId, asset, renderOf(format));
  } catch (err) {
    if (err instanceof AgentError) return {};
    throw err;
  }
}
