import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export type Weight = 'regular' | 'bold';

/** The one family snapshots are set in, shipped as an npm package so every machine draws the same pixels. */
export const fontFamily = 'DejaVu Sans';

const require = createRequire(import.meta.url);

export const fontFiles: Record<Weight, string> = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
};

/** Advance widths in em by code point, read once from each font's cmap and hmtx tables. */
const advances: Partial<Record<Weight, Map<number, number>>> = {};

/** For a character the font lacks (resvg draws nothing for it; the width keeps wrapping sane). */
const unknownAdvance = 0.6;

const advancesOf = (weight: Weight) => (advances[weight] ??= readAdvances(readFileSync(fontFiles[weight])));

/** Reads both fonts' metrics now (about 5 ms), so that the first preview does not wait for them. */
export function loadFontMetrics(): void {
  advancesOf('regular');
  advancesOf('bold');
}

/** The width of `text` set in DejaVu Sans at `size` px, without kerning (which only narrows it). */
export function textWidth(text: string, weight: Weight, size: number): number {
  const table = advancesOf(weight);
  let em = 0;
  for (const ch of text) em += table.get(ch.codePointAt(0)!) ?? unknownAdvance;
  return em * size;
}

/** The TrueType tables that map characters to glyphs and glyphs to advance widths. */
export function readAdvances(font: Uint8Array): Map<number, number> {
  const view = new DataView(font.buffer, font.byteOffset, font.byteLength);
  const tables = new Map<string, number>();
  const count = view.getUint16(4);
  for (let i = 0; i < count; i++) {
    const record = 12 + i * 16;
    tables.set(
      String.fromCharCode(font[record]!, font[record + 1]!, font[record + 2]!, font[record + 3]!),
      view.getUint32(record + 8),
    );
  }
  const table = (tag: string) => {
    const at = tables.get(tag);
    if (at === undefined) throw new Error(`font has no ${tag} table`);
    return at;
  };
  const unitsPerEm = view.getUint16(table('head') + 18);
  const metrics = view.getUint16(table('hhea') + 34);
  const hmtx = table('hmtx');
  const advance = (glyph: number) => view.getUint16(hmtx + 4 * Math.min(glyph, metrics - 1)) / unitsPerEm;

  const result = new Map<number, number>();
  const cmap = table('cmap');
  const subtables = new Map<string, number>();
  for (let i = 0; i < view.getUint16(cmap + 2); i++) {
    const record = cmap + 4 + i * 8;
    subtables.set(`${view.getUint16(record)}/${view.getUint16(record + 2)}`, cmap + view.getUint32(record + 4));
  }
  const full = subtables.get('3/10');
  const bmp = subtables.get('3/1') ?? subtables.get('0/3');
  if (full !== undefined && view.getUint16(full) === 12) {
    for (let g = 0, groups = view.getUint32(full + 12); g < groups; g++) {
      const at = full + 16 + g * 12;
      const start = view.getUint32(at);
      const end = view.getUint32(at + 4);
      const glyph = view.getUint32(at + 8);
      for (let c = start; c <= end; c++) result.set(c, advance(glyph + c - start));
    }
  } else if (bmp !== undefined && view.getUint16(bmp) === 4) {
    const segments = view.getUint16(bmp + 6) / 2;
    const ends = bmp + 14;
    const starts = ends + segments * 2 + 2;
    const deltas = starts + segments * 2;
    const offsets = deltas + segments * 2;
    for (let s = 0; s < segments; s++) {
      const start = view.getUint16(starts + s * 2);
      const end = view.getUint16(ends + s * 2);
      const delta = view.getInt16(deltas + s * 2);
      const offset = view.getUint16(offsets + s * 2);
      for (let c = start; c <= end && c !== 0xffff; c++) {
        let glyph: number;
        if (offset === 0) glyph = (c + delta) & 0xffff;
        else {
          glyph = view.getUint16(offsets + s * 2 + offset + (c - start) * 2);
          if (glyph !== 0) glyph = (glyph + delta) & 0xffff;
        }
        if (glyph !== 0) result.set(c, advance(glyph));
      }
    }
  } else {
    throw new Error('font has no Unicode cmap subtable');
  }
  return result;
}
