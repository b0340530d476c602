import type { Queryable } from '../../db/database.ts';
import type { BrandIdentity } from '../../protocol/brand-identity.ts';
import type { BrandManifest } from './rows.ts';
import { brandsForDomains } from './sql.ts';

/**
 * The identity of the brand a domain resolves to (its own entry, or the brand whose house declares
 * the domain), from the manifest the registry keeps for it (brand.json as crawled, an enrichment,
 * or a community save); undefined when the registry does not know the domain.
 */
export async function brandIdentity(db: Queryable, domain: string): Promise<BrandIdentity | undefined> {
  const row = (await brandsForDomains(db, [domain.toLowerCase()])).get(domain.toLowerCase());
  if (!row) return undefined;
  const manifest = row.manifest as BrandManifest & { url?: unknown; tagline?: unknown };
  const identity: BrandIdentity = {
    domain: row.domain,
    name: text(manifest.name) ?? row.brand_name,
    colors: {},
    logos: [],
  };
  const url = text(manifest.url);
  identity.url = url && /^https?:\/\//i.test(url) ? url : `https://${row.domain}/`;
  const tagline = text(manifest.tagline);
  if (tagline) identity.tagline = tagline;
  const description = text(manifest.description);
  if (description) identity.description = description;
  const colors = Array.isArray(manifest.colors) ? manifest.colors : [];
  for (const role of ['primary', 'secondary', 'accent'] as const) {
    const hex = colors.find((c) => c?.type === role && typeof c.hex === 'string')?.hex;
    if (hex) identity.colors[role] = hex;
  }
  identity.colors.primary ??= colors.find(
    (c) => typeof c?.hex === 'string' && !['secondary', 'accent'].includes(c.type ?? ''),
  )?.hex;
  if (identity.colors.primary === undefined) delete identity.colors.primary;
  for (const logo of Array.isArray(manifest.logos) ? manifest.logos : []) {
    if (typeof logo?.url === 'string' && /^https?:\/\//i.test(logo.url)) identity.logos.push({ url: logo.url });
  }
  return identity;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
