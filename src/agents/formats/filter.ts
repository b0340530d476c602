import { agentKey } from './find-format.ts';
import type { Format, FormatId, FormatType, Render, WcagLevel } from './format.ts';

/** The filters of list_creative_formats (creative/ and media-buy/list-creative-formats-request.json). */
export interface FormatFilters {
  format_ids?: FormatId[];
  type?: FormatType;
  asset_types?: string[];
  max_width?: number;
  max_height?: number;
  min_width?: number;
  min_height?: number;
  is_responsive?: boolean;
  name_search?: string;
  wcag_level?: WcagLevel;
  disclosure_positions?: string[];
  disclosure_persistence?: string[];
  input_format_ids?: FormatId[];
  output_format_ids?: FormatId[];
}

const wcagRank: Record<WcagLevel, number> = { A: 1, AA: 2, AAA: 3 };

/**
 * The formats that pass every filter given, in their order. Dimension filters look at renders'
 * fixed `width`/`height` and pass a format when any render fits (media-buy schema), so responsive
 * renders and formats without renders (audio) never pass one. A format is responsive when a render
 * says a side is. Format ids compare by id and agent URL in any spelling (`agentKey`); their
 * parameters are ignored, as standard formats take none.
 */
export function filterFormats(formats: readonly Format[], request: FormatFilters): Format[] {
  const {
    type,
    asset_types,
    max_width,
    max_height,
    min_width,
    min_height,
    is_responsive,
    wcag_level,
    disclosure_positions,
    disclosure_persistence,
  } = request;
  const wanted = request.format_ids && keysOf(request.format_ids);
  const inputs = request.input_format_ids && keysOf(request.input_format_ids);
  const outputs = request.output_format_ids && keysOf(request.output_format_ids);
  const search = request.name_search?.toLowerCase();
  const anyRender = (format: Format, fits: (dimensions: NonNullable<Render['dimensions']>) => boolean) =>
    (format.renders ?? []).some((r) => r.dimensions !== undefined && fits(r.dimensions));
  return formats.filter(
    (f) =>
      (!wanted || wanted.has(keyOf(f.format_id))) &&
      (!type || f.type === type) &&
      (!asset_types || asset_types.every((t) => assetTypesOf(f).has(t))) &&
      (max_width === undefined || anyRender(f, (d) => d.width !== undefined && d.width <= max_width)) &&
      (max_height === undefined || anyRender(f, (d) => d.height !== undefined && d.height <= max_height)) &&
      (min_width === undefined || anyRender(f, (d) => d.width !== undefined && d.width >= min_width)) &&
      (min_height === undefined || anyRender(f, (d) => d.height !== undefined && d.height >= min_height)) &&
      (is_responsive === undefined || isResponsive(f) === is_responsive) &&
      (search === undefined || f.name.toLowerCase().includes(search)) &&
      (!wcag_level ||
        (f.accessibility !== undefined && wcagRank[f.accessibility.wcag_level] >= wcagRank[wcag_level])) &&
      (!disclosure_positions || disclosure_positions.every((p) => disclosurePositionsOf(f).has(p))) &&
      (!disclosure_persistence ||
        disclosure_persistence.every((mode) =>
          (f.disclosure_capabilities ?? []).some((c) => c.persistence.includes(mode)),
        )) &&
      (!inputs || (f.input_format_ids ?? []).some((id) => inputs.has(keyOf(id)))) &&
      (!outputs || (f.output_format_ids ?? []).some((id) => outputs.has(keyOf(id)))),
  );
}

function keyOf(id: FormatId): string {
  return `${agentKey(id.agent_url)} ${id.id}`;
}

function keysOf(ids: readonly FormatId[]): Set<string> {
  return new Set(ids.map(keyOf));
}

/** Every asset type a creative of the format can carry, inside repeatable groups too. */
function assetTypesOf(format: Format): Set<string> {
  return new Set(
    (format.assets ?? []).flatMap((asset) =>
      (asset.item_type === 'repeatable_group' ? asset.assets : [asset]).map((a) => a.asset_type),
    ),
  );
}

function isResponsive(format: Format): boolean {
  return (format.renders ?? []).some(
    (r) => r.dimensions?.responsive?.width === true || r.dimensions?.responsive?.height === true,
  );
}

/** Structured capabilities supersede the flat list when a format has them (format.json). */
function disclosurePositionsOf(format: Format): Set<string> {
  return new Set(format.disclosure_capabilities?.map((c) => c.position) ?? format.supported_disclosure_positions ?? []);
}
