/**
 * core/format.json, as far as this code reads it. The schema allows more fields (and any
 * others), which pass through untouched.
 */
export interface Format {
  format_id: FormatId;
  name: string;
  description?: string;
  /** The spec's technical category (agent-tasks §2), which the creative request's `type` filters on; not a core/format.json field. */
  type?: FormatType;
  renders?: Render[];
  assets?: Array<Asset | AssetGroup>;
  /** The spec's name for the assets a creative must supply (agent-tasks §2): the `assets` marked required. */
  assets_required?: Asset[];
  /** Universal macros (enums/universal-macro.json) the format fills in its URLs and tags at serve time. */
  supported_macros?: string[];
  accessibility?: { wcag_level: WcagLevel; requires_accessible_assets?: boolean };
  supported_disclosure_positions?: string[];
  disclosure_capabilities?: Array<{ position: string; persistence: string[] }>;
  input_format_ids?: FormatId[];
  output_format_ids?: FormatId[];
  [field: string]: unknown;
}

/** core/format-id.json: never a bare string. */
export interface FormatId {
  agent_url: string;
  id: string;
  width?: number;
  height?: number;
  duration_ms?: number;
}

export type FormatType = 'display' | 'video' | 'audio' | 'dooh';

export type WcagLevel = 'A' | 'AA' | 'AAA';

export interface Render {
  role: string;
  dimensions?: {
    width?: number;
    height?: number;
    min_width?: number;
    min_height?: number;
    max_width?: number;
    max_height?: number;
    unit?: 'px' | 'dp' | 'inches' | 'cm' | 'mm' | 'pt';
    responsive?: { width: boolean; height: boolean };
    aspect_ratio?: string;
  };
  parameters_from_format_id?: true;
}

/** One asset a creative of the format supplies (enums/asset-content-type.json names its type). */
export interface Asset {
  item_type: 'individual';
  asset_id: string;
  asset_type: string;
  asset_role?: string;
  required: boolean;
  requirements?: Record<string, unknown>;
}

/** A repeatable group of assets (carousel cards, slides). */
export interface AssetGroup {
  item_type: 'repeatable_group';
  asset_group_id: string;
  required: boolean;
  min_count: number;
  max_count: number;
  assets: Array<Omit<Asset, 'item_type'>>;
}
