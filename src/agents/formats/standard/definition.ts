import type { Asset, FormatType, Render } from '../format.ts';

/** A standard format before it is given the URL of the creative agent that defines it. */
export interface Definition {
  id: string;
  name: string;
  description: string;
  type: FormatType;
  renders?: Render[];
  assets: Asset[];
  supported_macros: string[];
}

/** What a format's family makes of its size or length: where it renders, what a creative supplies, the macros it fills. */
export type Shape = Pick<Definition, 'renders' | 'assets' | 'supported_macros'>;

/** One standard format: what a buyer reads of it, then its family's shape. */
export const format = (id: string, name: string, type: FormatType, description: string, shape: Shape): Definition => ({
  id,
  name,
  description,
  type,
  ...shape,
});

const asset =
  (required: boolean) =>
  (asset_id: string, asset_type: string, asset_role: string, requirements: Record<string, unknown>): Asset => ({
    item_type: 'individual',
    asset_id,
    asset_type,
    asset_role,
    required,
    requirements,
  });

/** An asset every creative of the format supplies. */
export const required = asset(true);
/** An asset a creative of the format may supply. */
export const optional = asset(false);

export const clickthrough = required('click_url', 'url', 'clickthrough', {
  role: 'clickthrough',
  protocols: ['https'],
  max_length: 2048,
  macro_support: true,
});

/** Video and audio players may have no screen to click. */
export const optionalClickthrough = { ...clickthrough, required: false };

export const impressionTracker = optional('impression_tracker', 'url', 'third_party_tracking', {
  role: 'impression_tracker',
  protocols: ['https'],
  macro_support: true,
});

/** An image of exactly this size. */
export const exactly = (width: number, height: number) => ({
  min_width: width,
  max_width: width,
  min_height: height,
  max_height: height,
  unit: 'px',
});

/** Half a second either way: encoders round a spot's length to whole frames. */
export const lasting = (seconds: number) => ({
  min_duration_ms: seconds * 1000 - 500,
  max_duration_ms: seconds * 1000 + 500,
});
