import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * The HTML every page of this server is made of (the registry's pages, the dashboard, sign-in and
 * consent): one layout with the site's navigation and search, one stylesheet, the same security
 * headers. Pages work without a script; where one helps, it is a file of /assets, never inline.
 */

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The site's sections, in the order the navigation shows them. */
export const siteSections = [
  { path: '/brands', label: 'Brands' },
  { path: '/publishers', label: 'Publishers' },
  { path: '/properties', label: 'Properties' },
  { path: '/agents', label: 'Agents' },
  { path: '/check', label: 'Check' },
  { path: '/adagents', label: 'adagents.json' },
  { path: '/feed', label: 'Feed' },
  { path: '/playground', label: 'Playground' },
  { path: '/dashboard', label: 'Dashboard' },
] as const;

export interface PageOptions {
  /** The path of the section the page belongs to, marked in the navigation. */
  section?: string;
  /** A page of forms reads best in a narrow column. */
  narrow?: boolean;
  /** The search box's text. */
  query?: string;
  /** Scripts of /assets the page is better with (it works without them). */
  scripts?: readonly string[];
}

/** A whole page: the layout around `body` (HTML, already escaped), titled `title` (text). */
export function page(title: string, body: string, options: PageOptions = {}): string {
  const nav = siteSections
    .map(
      ({ path, label }) =>
        `<li><a href="${path}"${options.section === path ? ' aria-current="page"' : ''}>${escapeHtml(label)}</a></li>`,
    )
    .join('');
  const scripts = (options.scripts ?? []).map((src) => `<script src="/assets/${escapeHtml(src)}" defer></script>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · ap registry</title>
<link rel="icon" href="data:,"><link rel="stylesheet" href="/assets/site.css">${scripts.join('')}
</head><body>
<a class="skip" href="#content">Skip to content</a>
<header class="site"><div class="bar">
<a class="brand" href="/">ap registry</a>
<nav aria-label="Site"><ul>${nav}</ul></nav>
<form role="search" method="get" action="/search"><label class="skip" for="site-search">Search the registry</label>
<input id="site-search" type="search" name="q" placeholder="Brands, publishers, properties" value="${escapeHtml(options.query ?? '')}" maxlength="200">
<button type="submit">Search</button></form>
</div></header>
<main id="content"${options.narrow ? ' class="narrow"' : ''}>
<h1>${escapeHtml(title)}</h1>
${body}
</main></body></html>`;
}

/**
 * Sends a page with the headers every page of ours carries: a Content-Security-Policy that runs
 * only this server's files (no inline script or style), no framing by another site, forms posting
 * only here, and no cache where it shows what is private (`privateContent`: keys, sessions).
 */
export function sendHtml(reply: FastifyReply, html: string, status = 200, privateContent = true): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', privateContent ? 'no-store' : 'no-cache')
    .header(
      'content-security-policy',
      "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self' https: data:; connect-src 'self'; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .header('x-frame-options', 'DENY')
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'same-origin')
    .send(html);
}

const assets = new URL('./assets/', import.meta.url);
const assetTypes: Record<string, string> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8' };

/** Serves the pages' stylesheet and scripts (`src/http/assets/`), read once at start. */
export function registerPageAssets(app: FastifyInstance, files: readonly string[]): void {
  for (const file of files) {
    const body = readFileSync(new URL(file, assets), 'utf8');
    const type = assetTypes[file.slice(file.lastIndexOf('.') + 1)]!;
    app.get(`/assets/${file}`, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type(type)
        .header('cache-control', 'public, max-age=300')
        .header('x-content-type-options', 'nosniff')
        .send(body),
    );
  }
}

export function signInForm(
  action: string,
  options: { error?: string; email?: string; hidden?: Record<string, string> } = {},
): string {
  const hidden = Object.entries(options.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return `${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}
<form method="post" action="${escapeHtml(action)}">${hidden}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`;
}
