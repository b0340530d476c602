/** A colour as red, green and blue from 0 to 255. */
export type Rgb = readonly [number, number, number];

/** The colours a generated creative is drawn in. */
export interface Palette {
  /** What fills the creative: the brand's primary, or the colour the buyer asked to emphasise. */
  background: string;
  /** Text on the background: white or near-black, whichever reads. */
  text: string;
  /** The call-to-action button. */
  accent: string;
  accentText: string;
  /** Whether the colours are the brand's (or the buyer's): without, a re-laid picture shows through instead. */
  branded: boolean;
}

/** A brand's colour roles (brand.json `colors`), each a hex colour. */
export interface BrandColors {
  primary?: string;
  secondary?: string;
  accent?: string;
}

const neutral = '#1f2937';
const light = '#ffffff';
const dark = '#111827';

/** `#rgb` or `#rrggbb` (the `#` optional), as brand.json writes colours. */
export function parseHex(text: string): Rgb | undefined {
  const match = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim());
  if (!match) return undefined;
  const digits = match[1]!.length === 3 ? [...match[1]!].map((d) => d + d).join('') : match[1]!;
  return [0, 2, 4].map((i) => parseInt(digits.slice(i, i + 2), 16)) as unknown as Rgb;
}

export const hexOf = (rgb: Rgb): string => `#${rgb.map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/** The canonical spelling, `#rrggbb` in lower case. */
export const normalHex = (text: string): string | undefined => {
  const rgb = parseHex(text);
  return rgb && hexOf(rgb);
};

/** WCAG relative luminance. */
function luminance([r, g, b]: Rgb): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

/** WCAG contrast ratio, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [la, lb] = [luminance(parseHex(a)!), luminance(parseHex(b)!)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** White or near-black, whichever stands out more on `background`. */
export const readableOn = (background: string): string =>
  contrast(background, light) >= contrast(background, dark) ? light : dark;

/**
 * The palette: the emphasised colour, else the brand's primary, fills the creative; the button
 * takes the first other brand colour that stands out from it (contrast 2:1, enough for a shape),
 * else the text colour, so it never vanishes into the background.
 */
export function paletteOf(colors: BrandColors, emphasis?: string): Palette {
  const background = emphasis ?? colors.primary ?? neutral;
  const text = readableOn(background);
  const candidates = [colors.secondary, colors.accent, colors.primary].filter(
    (c): c is string => c !== undefined && c !== background,
  );
  const accent = candidates.find((c) => contrast(c, background) >= 2) ?? text;
  return {
    background,
    text,
    accent,
    accentText: readableOn(accent),
    branded: emphasis !== undefined || colors.primary !== undefined,
  };
}

/** Hue in degrees and saturation (0 to 1) of a colour, for matching a colour's name to a brand's. */
function hueOf([r, g, b]: Rgb): { hue: number; saturation: number } {
  const [rr, gg, bb] = [r / 255, g / 255, b / 255];
  const max = Math.max(rr, gg, bb);
  const min = Math.min(rr, gg, bb);
  const delta = max - min;
  const lightness = (max + min) / 2;
  const saturation = delta === 0 ? 0 : delta / (1 - Math.abs(2 * lightness - 1));
  let hue = 0;
  if (delta !== 0) {
    if (max === rr) hue = 60 * (((gg - bb) / delta) % 6);
    else if (max === gg) hue = 60 * ((bb - rr) / delta + 2);
    else hue = 60 * ((rr - gg) / delta + 4);
  }
  return { hue: (hue + 360) % 360, saturation };
}

/** Colours a message names by word, as a designer would pick them. */
export const namedColors: Record<string, string> = {
  red: '#dc2626',
  orange: '#ea580c',
  yellow: '#facc15',
  gold: '#ca8a04',
  green: '#16a34a',
  teal: '#0d9488',
  cyan: '#0891b2',
  blue: '#2563eb',
  navy: '#1e3a8a',
  purple: '#7c3aed',
  violet: '#7c3aed',
  pink: '#db2777',
  magenta: '#c026d3',
  brown: '#92400e',
  black: '#000000',
  white: '#ffffff',
  gray: '#6b7280',
  grey: '#6b7280',
};

/**
 * The colour a name stands for in this brand: the brand's own colour of that hue when it has one
 * (within 30 degrees, and a colour rather than a grey), so "emphasise the blue" picks the brand's
 * blue; else the name's usual value.
 */
export function brandShadeOf(name: string, colors: BrandColors): string | undefined {
  const named = namedColors[name];
  if (!named) return undefined;
  const wanted = hueOf(parseHex(named)!);
  if (wanted.saturation < 0.2) return named;
  for (const color of [colors.primary, colors.secondary, colors.accent]) {
    if (!color) continue;
    const own = hueOf(parseHex(color)!);
    const apart = Math.min(Math.abs(own.hue - wanted.hue), 360 - Math.abs(own.hue - wanted.hue));
    if (own.saturation >= 0.25 && apart <= 30) return color;
  }
  return named;
}
