import { escapeMarkup as e } from '../render/escape.ts';
import type { Box } from '../render/native-layout.ts';
import type { BannerLayout, Block } from './banner-layout.ts';
import type { Palette } from './palette.ts';

export interface BannerLinks {
  /** The clickthrough, as the manifest gives it (macros left for the ad server). */
  click?: string | undefined;
  picture?: string | undefined;
  logo?: string | undefined;
  /** What the banner says, for assistive technology and the document's title. */
  title: string;
}

/** Verdana is drawn from the same design as DejaVu Sans, so a browser sets the words as the PNG does. */
const fonts = '"DejaVu Sans",Verdana,Geneva,sans-serif';

const place = (box: Box) => `left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px`;

function words(name: string, block: Block | undefined, color: string, css: string[]): string {
  if (!block) return '';
  const left = block.align === 'middle' ? block.x - block.width / 2 : block.x;
  css.push(
    `.${name}{left:${left}px;top:${block.y}px;width:${block.width}px;font:${block.weight === 'bold' ? 'bold ' : ''}${block.size}px/${block.lineHeight}px ${fonts};color:${color};text-align:${block.align === 'middle' ? 'center' : 'left'}}`,
  );
  return `<div class="p ${name}">${block.lines.map((line) => `<div>${e(line)}</div>`).join('')}</div>`;
}

/**
 * The HTML5 banner: one self-contained document of the banner's size, laid out as its PNG is (the
 * same layout, the same font design), its picture and logo loaded from their URLs, the whole
 * banner one link to the clickthrough, also declared as the `clickTag` variable ad servers look
 * for; no other script.
 */
export function bannerHtml(layout: BannerLayout, palette: Palette, links: BannerLinks): string {
  const { width: w, height: h } = layout;
  const css = [
    'html,body{margin:0;padding:0;overflow:hidden}',
    `.ad{position:relative;display:block;width:${w}px;height:${h}px;overflow:hidden;background:${palette.background};color:${palette.text};text-decoration:none;font-family:${fonts}}`,
    '.p{position:absolute;margin:0;display:block}.p>div{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}',
  ];
  const parts: string[] = [];
  if (links.picture && layout.picture) {
    if (!palette.branded) {
      css.push(
        `.backdrop{${place({ x: 0, y: 0, width: w, height: h })};object-fit:cover}.veil{${place({ x: 0, y: 0, width: w, height: h })};background:${palette.background};opacity:.6}`,
      );
      parts.push(`<img class="p backdrop" src="${e(links.picture)}" alt="">`, '<div class="p veil"></div>');
    }
    css.push(`.picture{${place(layout.picture.box)};object-fit:${layout.picture.fit}}`);
    parts.push(`<img class="p picture" src="${e(links.picture)}" alt="">`);
  }
  if (links.logo && layout.logo) {
    css.push(`.logo{${place(layout.logo)};object-fit:contain}`);
    parts.push(`<img class="p logo" src="${e(links.logo)}" alt="">`);
  }
  parts.push(
    words('wordmark', layout.wordmark, palette.text, css),
    words('headline', layout.headline, palette.text, css),
    words('body', layout.body, palette.text, css),
  );
  if (layout.cta) {
    const { box, label } = layout.cta;
    css.push(
      `.cta{${place(box)};border-radius:${Math.round(box.height * 0.18)}px;background:${palette.accent};color:${palette.accentText};font:bold ${label.size}px/${box.height}px ${fonts};text-align:center;white-space:nowrap;overflow:hidden}`,
    );
    parts.push(`<div class="p cta">${e(label.lines[0] ?? '')}</div>`);
  }
  const click = links.click ?? '';
  const ad = click
    ? `<a class="ad" id="ad" href="${e(click)}" target="_blank" rel="noopener" aria-label="${e(links.title)}">${parts.join('')}</a>`
    : `<div class="ad" role="img" aria-label="${e(links.title)}">${parts.join('')}</div>`;
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta name="ad.size" content="width=${w},height=${h}">\n<title>${e(links.title)}</title>\n` +
    `<style>${css.join('\n')}</style>\n</head>\n<body>\n${ad}\n` +
    (click ? `<script>var clickTag = ${scriptString(click)};</script>\n` : '') +
    '</body>\n</html>\n'
  );
}

/** A string as a script literal that cannot end its script element. */
const scriptString = (value: string) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
