import { createHash } from 'node:crypto';
import type { Creative, ImageRef } from './creative.ts';
import { escapeMarkup as e } from './escape.ts';
import { layoutNative, type Box, type TextBlock } from './native-layout.ts';

/** Verdana is drawn from the same design as DejaVu Sans, so a browser wraps close to the snapshot. */
const fonts = '"DejaVu Sans",Verdana,Geneva,sans-serif';

/**
 * The page's policy: no script, no plugin, no form, nothing fetched but images and media (http(s)
 * and data: images), and styles only the one block whose hash it names, so even a mistake in
 * escaping could not run or restyle anything.
 */
const strictPolicy = (styleHash: string) =>
  `default-src 'none'; img-src https: http: data:; media-src https: http:; style-src '${styleHash}'; base-uri 'none'; form-action 'none'`;

/**
 * An HTML5 creative's frame inherits the page's policy (a srcdoc document takes its parent's), so
 * its page allows what creatives load. What contains the creative is the sandbox: scripts only,
 * in an opaque origin, with no way to navigate the page, open windows or submit forms; and the
 * page itself still has no script of its own.
 */
const creativePolicy =
  "default-src 'none'; script-src https: http: 'unsafe-inline' 'unsafe-eval' blob:; style-src https: http: 'unsafe-inline'; img-src https: http: data: blob:; " +
  "media-src https: http: data: blob:; font-src https: http: data:; connect-src https: http:; frame-src https: http:; base-uri 'none'; form-action 'none'";

/** The sandbox an HTML5 creative runs in. */
export const creativeSandbox = 'allow-scripts';

export function pageHtml(creative: Creative): string {
  const { width: w, height: h } = creative;
  const css: string[] = [
    'html,body{margin:0;padding:0;background:#fff}',
    `body{font-family:${fonts};color:#111827}`,
    `.ad{position:relative;display:block;width:${w}px;height:${h}px;overflow:hidden;box-sizing:border-box;color:inherit;text-decoration:none}`,
    `.fill{display:block;width:${w}px;height:${h}px;border:0;object-fit:${creative.fixed ? 'fill' : 'cover'}}`,
    '.frame{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:4px;padding:8px;background:#f3f4f6;border:1px solid #d1d5db;text-align:center;font-size:12px;color:#4b5563}',
    '.frame strong{font-size:14px;color:#111827}.frame a{color:#1d4ed8;word-break:break-all}',
    '.ph{background:#e5e7eb}',
  ];
  const body = bodyOf(creative, css);
  const style = css.join('\n');
  const policy =
    creative.kind === 'html5'
      ? creativePolicy
      : strictPolicy(`sha256-${createHash('sha256').update(style).digest('base64')}`);
  return (
    '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n' +
    `<meta http-equiv="Content-Security-Policy" content="${policy}">\n` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n<meta name="referrer" content="no-referrer">\n' +
    `<title>${e(`Preview: ${creative.name}`)}</title>\n<style>${style}</style>\n</head>\n<body>\n${body}\n</body>\n</html>\n`
  );
}

function bodyOf(creative: Creative, css: string[]): string {
  switch (creative.kind) {
    case 'image':
      return clickable(creative, creative.image ? img(creative.image, 'fill') : '<div class="fill ph"></div>');
    case 'html5':
      return `<div class="ad">${frame(creative)}</div>`;
    case 'native':
      return native(creative, css);
    case 'video':
      return player(creative, css, 'video');
    case 'audio':
      return player(creative, css, 'audio');
    case 'frame':
      return `<div class="ad frame"><strong>${e(creative.name)}</strong><span>${creative.width}×${creative.height}</span></div>`;
  }
}

const clickable = (creative: Creative, inner: string, extraClass = '') =>
  creative.click
    ? `<a class="ad${extraClass}" href="${e(creative.click)}" target="_blank" rel="noopener noreferrer">${inner}</a>`
    : `<div class="ad${extraClass}">${inner}</div>`;

const img = (image: ImageRef, cls: string) => `<img class="${cls}" src="${e(image.url)}" alt="${e(image.alt)}">`;

function frame(creative: Creative): string {
  const markup = creative.markup;
  const source = markup && 'url' in markup ? `src="${e(markup.url)}"` : `srcdoc="${e(markup?.document ?? '')}"`;
  return `<iframe class="fill" sandbox="${creativeSandbox}" ${source} width="${creative.width}" height="${creative.height}" scrolling="no" referrerpolicy="no-referrer" title="${e(creative.name)}"></iframe>`;
}

function native(creative: Creative, css: string[]): string {
  const layout = layoutNative(
    { ...creative.text, hasImage: creative.image !== undefined, hasLogo: creative.logo !== undefined },
    creative.width,
    creative.height,
  );
  css.push(
    '.card{background:#fff;box-shadow:inset 0 0 0 1px #e5e7eb}.n{position:absolute;margin:0;display:block}',
    '.n>div{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}img.n{object-fit:cover}.n-logo{object-fit:contain;border-radius:4px}',
    '.n-label{color:#6b7280}.n-body{color:#374151}.n-cta{background:#1d4ed8;color:#fff;border-radius:4px}',
  );
  const parts: string[] = [];
  const place = (name: string, box: Box, extra = '') =>
    css.push(`.n-${name}{left:${box.x}px;top:${box.y}px;width:${box.width}px;height:${box.height}px${extra}}`);
  const text = (name: string, block: TextBlock | undefined) => {
    if (!block) return;
    const { style, lineHeight } = block;
    place(
      name,
      { x: block.x, y: block.y, width: block.width, height: block.lines.length * lineHeight },
      `;font:${style.weight === 'bold' ? 'bold ' : ''}${style.size}px/${lineHeight}px ${fonts}`,
    );
    parts.push(`<div class="n n-${name}">${block.lines.map((line) => `<div>${e(line)}</div>`).join('')}</div>`);
  };
  if (layout.logo && creative.logo) {
    place('logo', layout.logo);
    parts.push(img(creative.logo, 'n n-logo'));
  }
  text('sponsor', layout.sponsor);
  text('label', layout.label);
  if (layout.image && creative.image) {
    place('image', layout.image);
    parts.push(img(creative.image, 'n n-image'));
  }
  text('headline', layout.headline);
  text('body', layout.body);
  if (layout.cta) {
    const { box, text: label } = layout.cta;
    place('cta', box, `;font:bold ${label.style.size}px/${box.height}px ${fonts};text-align:center`);
    parts.push(`<div class="n n-cta">${e(label.lines[0] ?? '')}</div>`);
  }
  return clickable(creative, parts.join(''), ' card');
}

function player(creative: Creative, css: string[], tag: 'video' | 'audio'): string {
  const media = creative.media ?? { kind: 'none', note: 'Nothing to play.' };
  const visit = creative.click
    ? `<a class="visit" href="${e(creative.click)}" target="_blank" rel="noopener noreferrer">Visit advertiser</a>`
    : '';
  css.push(
    '.visit{position:absolute;top:8px;right:8px;padding:4px 8px;border-radius:3px;background:rgba(0,0,0,.6);color:#fff;font-size:12px;text-decoration:none}',
  );
  if (media.kind === 'file' && tag === 'video') {
    css.push('video.fill{background:#000;object-fit:contain}');
    return `<div class="ad"><video class="fill" src="${e(media.url)}" controls playsinline preload="metadata"></video>${visit}</div>`;
  }
  if (media.kind === 'file') {
    css.push(
      '.audio{display:flex;flex-direction:column;justify-content:center;gap:6px;padding:8px 12px;background:#f3f4f6;font-size:13px}.audio audio{width:100%}',
    );
    return `<div class="ad audio"><strong>${e(creative.name)}</strong><audio src="${e(media.url)}" controls preload="metadata"></audio>${visit}</div>`;
  }
  const note =
    media.kind === 'tag'
      ? `<span>${e(media.standard)} tag</span><a href="${e(media.url)}" target="_blank" rel="noopener noreferrer">${e(media.url)}</a><span>The publisher’s player fetches and plays this tag; the preview does not run it.</span>`
      : `<span>${e(media.note)}</span>`;
  return `<div class="ad frame"><strong>${e(creative.name)}</strong>${note}</div>`;
}
