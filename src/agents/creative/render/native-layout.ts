import { textWidth } from './fonts.ts';
import { wrapText, type TextStyle } from './text-wrap.ts';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Lines of one text, the first baseline at `y`, each `lineHeight` below the last. */
export interface TextBlock {
  lines: string[];
  style: TextStyle;
  x: number;
  /** Top of the block; the first line's box spans y .. y + lineHeight. */
  y: number;
  width: number;
  lineHeight: number;
}

export interface NativeContent {
  headline?: string | undefined;
  body?: string | undefined;
  sponsor?: string | undefined;
  cta?: string | undefined;
  hasImage: boolean;
  hasLogo: boolean;
}

export interface NativeLayout {
  logo?: Box;
  sponsor?: TextBlock;
  label: TextBlock;
  image?: Box;
  headline?: TextBlock;
  body?: TextBlock;
  cta?: { box: Box; text: TextBlock };
}

const pad = 12;
const logoSide = 32;
const imageRatio = 1.91;
export const styles = {
  sponsor: { weight: 'bold', size: 13 },
  label: { weight: 'regular', size: 11 },
  headline: { weight: 'bold', size: 17 },
  body: { weight: 'regular', size: 14 },
  cta: { weight: 'bold', size: 14 },
} as const satisfies Record<string, TextStyle>;
const lineHeights = { sponsor: 16, label: 14, headline: 22, body: 19, cta: 18 };
const ctaHeight = 32;
const ctaPad = 14;

/**
 * A sponsored post as feeds show one: the advertiser (logo, name, "Sponsored"), the 1.91:1 image
 * across the card, the headline (two lines at most), the body (three), the call to action. When
 * the box is shorter than all that, the image gives up height first, then the body its lines. The
 * HTML page and the PNG snapshot both place their pieces by this one layout, so they agree.
 */
export function layoutNative(content: NativeContent, width: number, height: number): NativeLayout {
  const inner = Math.max(0, width - 2 * pad);
  const textX = content.hasLogo ? pad + logoSide + 8 : pad;
  const textWidthLeft = Math.max(0, width - textX - pad);
  const sponsorLines = content.sponsor ? wrapText(content.sponsor, styles.sponsor, textWidthLeft, 1) : [];
  const layout: NativeLayout = {
    label: block(
      ['Sponsored'],
      'label',
      textX,
      pad + (sponsorLines.length > 0 ? lineHeights.sponsor + 1 : 8),
      textWidthLeft,
    ),
  };
  if (content.hasLogo) layout.logo = { x: pad, y: pad, width: logoSide, height: logoSide };
  if (sponsorLines.length > 0) layout.sponsor = block(sponsorLines, 'sponsor', textX, pad, textWidthLeft);
  const headerBottom = pad + logoSide + 10;
  const headlineLines = content.headline ? wrapText(content.headline, styles.headline, inner, 2) : [];
  let bodyLines = content.body ? wrapText(content.body, styles.body, inner, 3) : [];
  const ctaText = content.cta ? wrapText(content.cta, styles.cta, Math.max(0, inner - 2 * ctaPad), 1) : [];
  const textHeight = () =>
    (headlineLines.length > 0 ? 10 + headlineLines.length * lineHeights.headline : 0) +
    (bodyLines.length > 0 ? 6 + bodyLines.length * lineHeights.body : 0) +
    (ctaText.length > 0 ? 12 + ctaHeight : 0) +
    pad;
  let imageHeight = content.hasImage ? Math.round(width / imageRatio) : 0;
  const room = () => height - headerBottom - imageHeight - textHeight();
  if (room() < 0) imageHeight = Math.max(0, imageHeight + room());
  while (room() < 0 && bodyLines.length > 0) bodyLines = bodyLines.slice(0, -1);

  let y = headerBottom + imageHeight;
  if (imageHeight > 0) layout.image = { x: 0, y: headerBottom, width, height: imageHeight };
  if (headlineLines.length > 0) {
    layout.headline = block(headlineLines, 'headline', pad, y + 10, inner);
    y += 10 + headlineLines.length * lineHeights.headline;
  }
  if (bodyLines.length > 0) {
    layout.body = block(bodyLines, 'body', pad, y + 6, inner);
    y += 6 + bodyLines.length * lineHeights.body;
  }
  if (ctaText.length > 0) {
    const buttonWidth = Math.min(
      inner,
      Math.ceil(textWidth(ctaText[0]!, styles.cta.weight, styles.cta.size)) + 2 * ctaPad,
    );
    const top = Math.max(y + 12, height - pad - ctaHeight);
    layout.cta = {
      box: { x: pad, y: top, width: buttonWidth, height: ctaHeight },
      text: block(ctaText, 'cta', pad + ctaPad, top + (ctaHeight - lineHeights.cta) / 2, buttonWidth - 2 * ctaPad),
    };
  }
  return layout;
}

/** The height the card needs at `width` to show all its content. */
export function naturalNativeHeight(content: NativeContent, width: number): number {
  const layout = layoutNative(content, width, Number.MAX_SAFE_INTEGER / 4);
  const bottoms = [
    pad + logoSide,
    ...[layout.image].filter((b) => b !== undefined).map((b) => b.y + b.height),
    ...[layout.headline, layout.body].filter((b) => b !== undefined).map((b) => b.y + b.lines.length * b.lineHeight),
  ];
  const textBottom = Math.max(...bottoms);
  return textBottom + (content.cta ? 12 + ctaHeight : 0) + pad;
}

function block(lines: string[], name: keyof typeof styles, x: number, y: number, width: number): TextBlock {
  return { lines, style: styles[name], x, y, width, lineHeight: lineHeights[name] };
}
