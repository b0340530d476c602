import { escapeMarkup as e } from '../render/escape.ts';
import { fontFamily } from '../render/fonts.ts';
import type { Box } from '../render/native-layout.ts';
import type { BannerLayout, Block } from './banner-layout.ts';
import type { Palette } from './palette.ts';

/** Images drawn into a composition, as data: URIs (nothing for resvg to fetch). */
export interface BannerImages {
  picture?: string | undefined;
  logo?: string | undefined;
}

/** Where a line's baseline sits in its line box: DejaVu's glyphs centred as a browser centres them. */
const baseline = (size: number, lineHeight: number) => (lineHeight - size) / 2 + size * 0.8;

function text(block: Block | undefined, fill: string): string {
  if (!block) return '';
  const weight = block.weight === 'bold' ? 700 : 400;
  return block.lines
    .map((line, i) => {
      const y = (block.y + i * block.lineHeight + baseline(block.size, block.lineHeight)).toFixed(1);
      return `<text x="${block.x}" y="${y}" font-family="${fontFamily}" font-size="${block.size}" font-weight="${weight}" fill="${fill}" text-anchor="${block.align}" xml:space="preserve">${e(line)}</text>`;
    })
    .join('');
}

const image = (href: string, box: Box, fit: 'cover' | 'contain') =>
  `<image x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" preserveAspectRatio="${fit === 'cover' ? 'xMidYMid slice' : 'xMidYMid meet'}" href="${href}"/>`;

/**
 * The banner as an SVG of exactly its size: the palette's background (or, for a picture without
 * brand colours, the picture itself filling the banner under a veil of the background), then the
 * picture, logo, words and button where the layout puts them.
 */
export function bannerSvg(layout: BannerLayout, palette: Palette, images: BannerImages): string {
  const { width: w, height: h } = layout;
  const parts = [`<rect width="${w}" height="${h}" fill="${palette.background}"/>`];
  if (images.picture && layout.picture && !palette.branded) {
    parts.push(
      image(images.picture, { x: 0, y: 0, width: w, height: h }, 'cover'),
      `<rect width="${w}" height="${h}" fill="${palette.background}" fill-opacity="0.6"/>`,
    );
  }
  if (images.picture && layout.picture) parts.push(image(images.picture, layout.picture.box, layout.picture.fit));
  if (images.logo && layout.logo) parts.push(image(images.logo, layout.logo, 'contain'));
  parts.push(text(layout.wordmark, palette.text), text(layout.headline, palette.text), text(layout.body, palette.text));
  if (layout.cta) {
    const { box, label } = layout.cta;
    parts.push(
      `<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="${Math.round(box.height * 0.18)}" fill="${palette.accent}"/>`,
      text(label, palette.accentText),
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${parts.join('')}</svg>`;
}

/**
 * A square logo: the brand's logo on white (on the brand's colour when the logo is made for dark
 * backgrounds), with a margin; without one, the brand's initials on its colour.
 */
export function logoTileSvg(
  side: number,
  palette: Palette,
  logo: { href: string; dark: boolean } | undefined,
  brandName: string,
): string {
  if (logo) {
    const fill = logo.dark ? palette.background : '#ffffff';
    const margin = Math.round(side * 0.12);
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="${fill}"/>${image(logo.href, { x: margin, y: margin, width: side - 2 * margin, height: side - 2 * margin }, 'contain')}</svg>`;
  }
  const initials = monogram(brandName);
  const size = Math.round(side * (initials.length > 1 ? 0.38 : 0.5));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}"><rect width="${side}" height="${side}" fill="${palette.background}"/>` +
    `<text x="${side / 2}" y="${(side / 2 + size * 0.36).toFixed(1)}" font-family="${fontFamily}" font-size="${size}" font-weight="700" fill="${palette.text}" text-anchor="middle">${e(initials)}</text></svg>`
  );
}

/** The first letters of the name's first two words, in capitals. */
export function monogram(name: string): string {
  const letters = name
    .split(/[\s._-]+/)
    .filter((w) => w.length > 0)
    .slice(0, 2)
    .map((w) => [...w][0]!.toUpperCase());
  return letters.join('') || '?';
}
