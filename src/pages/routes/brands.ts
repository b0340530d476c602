import type { FastifyInstance } from 'fastify';
import { html } from 'ghtml';
import { page, sendHtml } from '../../http/html.ts';
import type { ApiReader } from '../api.ts';
import { domainLink, facts, object, sendRefusal, table, text, when } from '../parts.ts';
import { listRoute } from './list-page.ts';
import { domainPageRoute } from './domain-page.ts';
import { records, strings } from '../../protocol/json-values.ts';

/** `/brands` (the registry's brands, searched and paged as the API pages them) and `/brands/:domain`. */
export function brandRoutes(app: FastifyInstance, api: ApiReader): void {
  listRoute(app, api, {
    path: '/brands',
    title: 'Brands',
    source: '/api/brands/registry',
    items: 'brands',
    searchLabel: 'Search brands',
    noun: 'brands',
    headings: ['Domain', 'Name', 'Architecture', 'House', 'Source', 'Updated'],
    row: (b) =>
      html`<tr>
        <td>!${domainLink('brands', b['domain'])}</td>
        <td>${text(b['brand_name'])}</td>
        <td>${text(b['keller_type'])}</td>
        <td>!${b['house_domain'] !== b['domain'] ? domainLink('brands', b['house_domain']) : 'itself'}</td>
        <td>${text(b['source'])}</td>
        <td>!${when(b['updated_at'])}</td>
      </tr>`,
    empty: 'No brand matches.',
  });

  domainPageRoute(app, '/brands/:domain', async (request, reply, domain) => {
    const resolved = await api(request, '/api/brands/resolve', { domain });
    if (resolved.status !== 200) return sendRefusal(reply, domain, resolved, { section: '/brands' });
    const brand = resolved.body;
    const canonical = text(brand['canonical_domain']) || domain;
    const house = text(brand['house_domain']) || canonical;
    const [entry, history, houseFile] = await Promise.all([
      api(request, '/api/brands/registry', { q: canonical, limit: 5 }).then(
        (a) => records(a.body['brands']).find((b) => b['domain'] === canonical) ?? {},
      ),
      api(request, '/api/brands/history', { domain: canonical }),
      api(request, '/api/brands/brand-json', { domain: house }),
    ]);
    const declared = object(houseFile.body['data']);
    const ownEntry = records(declared['brands']).find((b) => hostOf(b['url']) === canonical) ?? {};
    const identity = { ...ownEntry, ...object(entry['brand_manifest']) };
    const subBrands = records(declared['brands'])
      .map((b) => hostOf(b['url']))
      .filter((d) => d && d !== canonical);
    const revisions = records(history.body['revisions']).map(
      (r) =>
        html`<tr>
          <td>${String(r['revision_number'] ?? '')}</td>
          <td>!${when(r['created_at'])}</td>
          <td>${text(r['editor_name'])}</td>
          <td>${text(r['edit_summary'])}</td>
          <td>${text(r['source'])}</td>
        </tr>`,
    );
    const body = html`!${facts([
        ['Name', html`${text(brand['brand_name'])}`],
        ['Domain', html`<code>${canonical}</code>`],
        ['Architecture', html`${text(brand['keller_type'])}`],
        ['House', house === canonical ? 'its own house' : domainLink('brands', house)],
        ['Source', html`${text(brand['source'])}`],
        ['Description', html`${text(identity['description'])}`],
        ['Tagline', html`${text(identity['tagline'])}`],
        ['Industries', html`${strings(identity['industries']).join(', ')}`],
      ])}
      !${logos(identity['logos'])} !${colors(identity['colors'])}
      !${
        subBrands.length > 0
          ? html`<h2>${house === canonical ? 'Brands of this house' : 'Other brands of its house'}</h2>
              <ul>
                !${subBrands.map((d) => html`<li>!${domainLink('brands', d)}</li>`)}
              </ul>`
          : ''
      }
      <h2>Revision history</h2>
      !${table('Revisions', ['Revision', 'When', 'By', 'Summary', 'Source'], revisions, 'No revision recorded.')}
      <p><a href="/api/brands/resolve?domain=${encodeURIComponent(canonical)}">This brand in the API</a></p>`;
    return sendHtml(reply, page(text(brand['brand_name']) || canonical, body, { section: '/brands' }), 200, false);
  });
}

function logos(value: unknown): string {
  const shown = records(value).filter((l) => /^https:\/\//i.test(text(l['url'])));
  if (shown.length === 0) return '';
  return html`<h2>Logos</h2>
    <ul class="logos">
      !${shown.map(
        (l) =>
          html`<li>
            <img
              src="${text(l['url'])}"
              alt="${[text(l['variant']), 'logo'].filter(Boolean).join(' ')}"
              loading="lazy"
            />
          </li>`,
      )}
    </ul>`;
}

/** A manifest's colours: brand.json's `{role: hex}` or the registry's `[{hex, type}]`. */
function colors(value: unknown): string {
  const pairs: Array<[string, string]> = Array.isArray(value)
    ? records(value).map((c) => [text(c['type']) || 'colour', text(c['hex'])])
    : Object.entries(object(value)).flatMap(([role, hex]) =>
        (Array.isArray(hex) ? hex : [hex]).map((h): [string, string] => [role, text(h)]),
      );
  const valid = pairs.filter(([, hex]) => /^#[0-9a-f]{6}$/i.test(hex));
  if (valid.length === 0) return '';
  return html`<h2>Colours</h2>
    <ul class="swatches">
      !${valid.map(
        ([role, hex]) =>
          html`<li>
            <svg class="swatch" viewBox="0 0 1 1" aria-hidden="true"><rect width="1" height="1" fill="${hex}" /></svg
            >${role} <code>${hex}</code>
          </li>`,
      )}
    </ul>`;
}

function hostOf(url: unknown): string {
  try {
    return new URL(text(url)).hostname;
  } catch {
    return '';
  }
}
