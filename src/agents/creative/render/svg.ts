import type { Creative } from './creative.ts';
import { escapeMarkup as e } from './escape.ts';
import { fontFamily } from './fonts.ts';
import { layoutNative, type Box, type TextBlock } from './native-layout.ts';
import { wrapText, type TextStyle } from './text-wrap.ts';

/** An image ready to embed: a data: URI of bytes resvg decodes; undefined draws a placeholder. */
export type Embedded = string | undefined;

export interface SnapshotImages {
  image?: Embedded;
  backup?: Embedded;
  logo?: Embedded;
}

const fit = { fill: 'none', cover: 'xMidYMid slice', contain: 'xMidYMid meet' } as const;

/**
 * The snapshot as an SVG document of exactly the creative's size: only shapes, text we escape,
 * and images as data: URIs, so resvg has nothing to fetch or run.
 */
export function snapshotSvg(creative: Creative, images: SnapshotImages): string {
  const { width: w, height: h } = creative;
  const box = { x: 0, y: 0, width: w, height: h };
  let content: string;
  switch (creative.kind) {
    case 'image':
      content = picture(images.image, box, creative.fixed ? 'fill' : 'cover');
      break;
    case 'html5':
      content = creative.backup
        ? picture(images.backup, box, creative.fixed ? 'fill' : 'cover')
        : neutral(creative, 'HTML5 creative');
      break;
    case 'native':
      content = nativeCard(creative, images);
      break;
    default:
      content = neutral(creative, '');
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}"><rect width="${w}" height="${h}" fill="#ffffff"/>${content}</svg>`;
}

function picture(href: Embedded, box: Box, how: keyof typeof fit): string {
  if (!href) return placeholder(box);
  // resvg clips a sliced image to its box itself; a clipping <svg> around it would make a
  // full-HD snapshot 2.5 times slower (measured).
  return `<image x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" preserveAspectRatio="${fit[how]}" href="${href}"/>`;
}

/** A grey box with a landscape sign, where an image is missing or could not be loaded. */
function placeholder({ x, y, width, height }: Box): string {
  const side = Math.min(width, height) * 0.4;
  const cx = x + width / 2;
  const cy = y + height / 2;
  const s = side / 2;
  const mountains = `M${cx - s} ${cy + s * 0.6} L${cx - s * 0.3} ${cy - s * 0.2} L${cx + s * 0.1} ${cy + s * 0.25} L${cx + s * 0.45} ${cy - s * 0.05} L${cx + s} ${cy + s * 0.6} Z`;
  return (
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="#e5e7eb"/>` +
    (side >= 8
      ? `<path d="${mountains}" fill="#c4c8cf"/><circle cx="${cx + s * 0.45}" cy="${cy - s * 0.5}" r="${s * 0.16}" fill="#c4c8cf"/>`
      : '')
  );
}

function text(block: TextBlock | undefined, fill: string): string {
  if (!block) return '';
  const { style, lineHeight } = block;
  return block.lines
    .map((line, i) => textLine(line, style, block.x, block.y + i * lineHeight + baseline(style.size, lineHeight), fill))
    .join('');
}

/** Where a line's baseline sits in its line box: DejaVu's glyphs centred as a browser centres them. */
const baseline = (size: number, lineHeight: number) => (lineHeight - size) / 2 + size * 0.8;

const textLine = (line: string, style: TextStyle, x: number, y: number, fill: string, anchor = 'start') =>
  `<text x="${x}" y="${y.toFixed(1)}" font-family="${fontFamily}" font-size="${style.size}" font-weight="${style.weight === 'bold' ? 700 : 400}" fill="${fill}" text-anchor="${anchor}" xml:space="preserve">${e(line)}</text>`;

function nativeCard(creative: Creative, images: SnapshotImages): string {
  const layout = layoutNative(
    { ...creative.text, hasImage: creative.image !== undefined, hasLogo: creative.logo !== undefined },
    creative.width,
    creative.height,
  );
  const parts = [
    `<rect x="0.5" y="0.5" width="${creative.width - 1}" height="${creative.height - 1}" fill="none" stroke="#e5e7eb"/>`,
  ];
  if (layout.logo) parts.push(picture(images.logo, layout.logo, 'contain'));
  parts.push(text(layout.sponsor, '#111827'), text(layout.label, '#6b7280'));
  if (layout.image) parts.push(picture(images.image, layout.image, 'cover'));
  parts.push(text(layout.headline, '#111827'), text(layout.body, '#374151'));
  if (layout.cta) {
    const { box, text: label } = layout.cta;
    parts.push(`<rect x="${box.x}" y="${box.y}" width="${box.width}" height="${box.height}" rx="4" fill="#1d4ed8"/>`);
    const line = label.lines[0] ?? '';
    parts.push(
      textLine(
        line,
        label.style,
        box.x + box.width / 2,
        box.y + baseline(label.style.size, box.height),
        '#ffffff',
        'middle',
      ),
    );
  }
  return parts.join('');
}

/** A frame naming the format and its size, for a creative that has no still picture of its own. */
function neutral(creative: Creative, what: string): string {
  const { width: w, height: h } = creative;
  const size = Math.max(8, Math.min(14, Math.floor(h / 4)));
  const small = Math.max(7, size - 3);
  const subtitle = [what, `${w}×${h}`].filter((s) => s !== '').join(' · ');
  const room = Math.floor((h - 8) / (size * 1.3));
  const showSubtitle = room >= 2;
  const nameLines = wrapText(
    creative.name,
    { weight: 'bold', size },
    w - 16,
    Math.max(1, Math.min(3, room - (showSubtitle ? 1 : 0))),
  );
  const lines: Array<{ line: string; style: TextStyle; fill: string }> = nameLines.map((line) => ({
    line,
    style: { weight: 'bold', size },
    fill: '#111827',
  }));
  if (showSubtitle)
    lines.push(
      ...wrapText(subtitle, { weight: 'regular', size: small }, w - 16, 1).map((line) => ({
        line,
        style: { weight: 'regular', size: small } as const,
        fill: '#4b5563',
      })),
    );
  const lineHeight = size * 1.3;
  const top = (h - lines.length * lineHeight) / 2;
  return (
    `<rect x="0.5" y="0.5" width="${w - 1}" height="${h - 1}" fill="#f3f4f6" stroke="#d1d5db"/>` +
    lines
      .map(({ line, style, fill }, i) =>
        textLine(line, style, w / 2, top + i * lineHeight + baseline(style.size, lineHeight), fill, 'middle'),
      )
      .join('')
  );
}
