import { textWidth, type Weight } from '../render/fonts.ts';
import type { Box } from '../render/native-layout.ts';
import { wrapText } from '../render/text-wrap.ts';

/** Lines of text set at one size, each `lineHeight` below the last, anchored at `x` (its left, or its middle). */
export interface Block {
  lines: string[];
  size: number;
  weight: Weight;
  x: number;
  y: number;
  width: number;
  lineHeight: number;
  align: 'start' | 'middle';
}

/** What goes into a generated banner. */
export interface BannerContent {
  headline?: string | undefined;
  body?: string | undefined;
  cta?: string | undefined;
  /** Shown as a wordmark where there is no logo. */
  brandName?: string | undefined;
  /** A logo's pixel size, when there is one to draw. */
  logo?: { width: number; height: number } | undefined;
  /** A picture to re-lay (a transformation's source image), by its pixel size. */
  picture?: { width: number; height: number } | undefined;
}

export interface BannerLayout {
  width: number;
  height: number;
  /** A picture beside the words is cropped to its box; alone, it is shown whole. */
  picture?: { box: Box; fit: 'cover' | 'contain' };
  logo?: Box;
  wordmark?: Block;
  headline?: Block;
  body?: Block;
  cta?: { box: Box; label: Block };
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));
const lineHeightOf = (size: number) => Math.round(size * 1.2);
const wordsOf = (text: string) => text.replace(/\s+/g, '');

/**
 * The largest size from `max` down to `min` at which `text` fits the box whole; at `min` it is cut
 * with an ellipsis. Undefined when not even one line of it fits.
 */
export function fitBlock(
  text: string,
  weight: Weight,
  max: number,
  min: number,
  width: number,
  height: number,
  x: number,
  y: number,
  align: Block['align'],
): Block | undefined {
  const top = Math.max(min, Math.floor(max));
  for (let size = top; size >= min; size--) {
    const lineHeight = lineHeightOf(size);
    const room = Math.floor(height / lineHeight);
    if (room < 1) continue;
    const lines = wrapText(text, { weight, size }, width, room);
    if (lines.length > 0 && (wordsOf(lines.join('')) === wordsOf(text) || size === min))
      return { lines, size, weight, x, y, width, lineHeight, align };
  }
  return undefined;
}

const blockHeight = (block: Block | undefined) => (block ? block.lines.length * block.lineHeight : 0);

/** The call-to-action button: the label on one line, as wide as it needs up to `maxWidth`. */
function button(
  label: string,
  size: number,
  maxWidth: number,
  maxHeight: number,
): { width: number; height: number; lines: string[] } | undefined {
  const inner = maxWidth - Math.round(size * 1.6);
  const lines = wrapText(label, { weight: 'bold', size }, inner, 1);
  if (lines.length === 0 || maxHeight < size * 1.4) return undefined;
  const width = Math.min(maxWidth, Math.ceil(textWidth(lines[0]!, 'bold', size)) + Math.round(size * 1.6));
  return { width, height: Math.min(maxHeight, Math.round(size * 2.3)), lines };
}

/** The call-to-action button's label: bold, one line, centred at `x` and in the box's height. */
function buttonLabel(lines: string[], size: number, box: Box, x: number): Block {
  const lineHeight = lineHeightOf(size);
  const y = box.y + (box.height - lineHeight) / 2;
  return { lines, size, weight: 'bold', x, y, width: box.width, lineHeight, align: 'middle' };
}

/** Where a banner's words go: a region `width` wide with `room` of height from `top`, of which the body may take `bodyRoom`. */
interface WordsArea {
  /** The headline's largest size. */
  maxSize: number;
  width: number;
  room: number;
  bodyRoom: number;
  x: number;
  top: number;
  align: Block['align'];
}

/**
 * Sets the headline at the largest size that leaves the body its room, then the body (when it has
 * room) at half the headline's size, in what the headline left; `centreVertically` places them.
 */
function setWords(layout: BannerLayout, headline: string, body: string | undefined, area: WordsArea): void {
  const { width, room, bodyRoom, x, align } = area;
  layout.headline = fitBlock(headline, 'bold', area.maxSize, 8, width, room - bodyRoom, x, area.top, align);
  if (body && bodyRoom > 0 && layout.headline) {
    const size = Math.max(9, Math.round(layout.headline.size * 0.5));
    const left = room - blockHeight(layout.headline);
    layout.body = fitBlock(body, 'regular', size, Math.max(8, size - 3), width, left, x, 0, align);
  }
}

/**
 * A banner laid out for its shape: a strip (leaderboards, mobile banners, billboards: 2.5 times
 * wider than high or more) reads left to right, picture, logo, headline, button; any other shape
 * stacks logo, picture, headline, body and button, centred. Sizes follow the banner's, and the
 * headline takes the largest size at which it fits whole. Where a banner has no headline, a
 * picture takes its room and is shown whole.
 */
export function layoutBanner(content: BannerContent, width: number, height: number): BannerLayout {
  return width / height >= 2.5 ? strip(content, width, height) : stack(content, width, height);
}

function strip(content: BannerContent, w: number, h: number): BannerLayout {
  const layout: BannerLayout = { width: w, height: h };
  const pad = clamp(Math.round(h * 0.12), 4, 32);
  let x = 0;
  if (content.picture && content.headline) {
    const pw = Math.min(Math.round((h * content.picture.width) / content.picture.height), Math.round(w * 0.3));
    layout.picture = { box: { x: 0, y: 0, width: pw, height: h }, fit: 'cover' };
    x = pw;
  }
  x += pad;
  if (content.logo) {
    const side = h - 2 * pad;
    const lw = Math.min(Math.round((side * content.logo.width) / content.logo.height), side * 3, Math.round(w * 0.2));
    layout.logo = { x, y: pad, width: lw, height: side };
    x += lw + pad;
  }
  let right = w - pad;
  if (content.cta) {
    const size = clamp(Math.round(h * 0.2), 9, 28);
    const made = button(content.cta, size, Math.round(w * 0.3), h - 2 * pad);
    if (made) {
      const box = {
        x: w - pad - made.width,
        y: Math.round((h - made.height) / 2),
        width: made.width,
        height: made.height,
      };
      layout.cta = { box, label: buttonLabel(made.lines, size, box, box.x + box.width / 2) };
      right = box.x - pad;
    }
  }
  const regionWidth = Math.max(0, right - x);
  if (!content.headline) {
    if (content.picture)
      layout.picture = { box: { x: x - pad, y: 0, width: regionWidth + 2 * pad, height: h }, fit: 'contain' };
    return layout;
  }
  let top = pad;
  let room = h - 2 * pad;
  if (!content.logo && content.brandName && h >= 80) {
    const size = clamp(Math.round(h * 0.14), 9, 20);
    layout.wordmark = fitBlock(content.brandName, 'bold', size, size, regionWidth, lineHeightOf(size), x, top, 'start');
    const used = blockHeight(layout.wordmark);
    top += used;
    room -= used;
  }
  const bodyRoom = content.body && h >= 200 ? Math.round(room * 0.35) : 0;
  setWords(layout, content.headline, content.body, {
    maxSize: Math.min(Math.round(h * 0.3), 44),
    width: regionWidth,
    room,
    bodyRoom,
    x,
    top,
    align: 'start',
  });
  centreVertically([layout.wordmark, layout.headline, layout.body], pad, h - pad);
  return layout;
}

function stack(content: BannerContent, w: number, h: number): BannerLayout {
  const layout: BannerLayout = { width: w, height: h };
  const pad = clamp(Math.round(Math.min(w, h) * 0.07), 6, 64);
  const inner = w - 2 * pad;
  let y = pad;
  if (content.logo) {
    const lh = Math.round(Math.min(h * 0.14, w * 0.3));
    const lw = Math.min(inner, Math.round((lh * content.logo.width) / content.logo.height));
    layout.logo = { x: Math.round((w - lw) / 2), y, width: lw, height: lh };
    y += lh + Math.round(pad * 0.6);
  } else if (content.brandName) {
    const size = clamp(Math.round(Math.min(w * 0.07, h * 0.06)), 9, 56);
    layout.wordmark = fitBlock(
      content.brandName,
      'bold',
      size,
      Math.max(8, size - 4),
      inner,
      lineHeightOf(size),
      w / 2,
      y,
      'middle',
    );
    y += blockHeight(layout.wordmark) + Math.round(pad * 0.5);
  }
  let bottom = h - pad;
  if (content.cta) {
    const size = clamp(Math.round(Math.min(w * 0.065, h * 0.05)), 9, 48);
    const made = button(content.cta, size, inner, Math.round(h * 0.2));
    if (made) {
      const box = {
        x: Math.round((w - made.width) / 2),
        y: h - pad - made.height,
        width: made.width,
        height: made.height,
      };
      layout.cta = { box, label: buttonLabel(made.lines, size, box, w / 2) };
      bottom = box.y - pad;
    }
  }
  if (!content.headline) {
    if (content.picture && bottom > y)
      layout.picture = { box: { x: pad, y, width: inner, height: bottom - y }, fit: 'contain' };
    return layout;
  }
  if (content.picture) {
    const ph = Math.min(
      Math.round((w * content.picture.height) / content.picture.width),
      Math.round((bottom - y) * 0.45),
    );
    if (ph > 0) {
      layout.picture = { box: { x: 0, y, width: w, height: ph }, fit: 'cover' };
      y += ph + pad;
    }
  }
  const room = bottom - y;
  const bodyRoom = content.body && room >= 80 ? Math.round(room * 0.35) : 0;
  setWords(layout, content.headline, content.body, {
    maxSize: Math.round(Math.min(w * 0.15, h * 0.1)),
    width: inner,
    room,
    bodyRoom,
    x: w / 2,
    top: y,
    align: 'middle',
  });
  centreVertically([layout.headline, layout.body], y, bottom);
  return layout;
}

/** Places the blocks one under the other, the group centred between `top` and `bottom`, a little space between blocks. */
function centreVertically(blocks: Array<Block | undefined>, top: number, bottom: number): void {
  const present = blocks.filter((b): b is Block => b !== undefined);
  const gap = (b: Block) => Math.round(b.size * 0.3);
  const total = present.reduce((sum, b, i) => sum + blockHeight(b) + (i > 0 ? gap(b) : 0), 0);
  let y = top + Math.max(0, Math.round((bottom - top - total) / 2));
  for (const [i, block] of present.entries()) {
    if (i > 0) y += gap(block);
    block.y = y;
    y += blockHeight(block);
  }
}
