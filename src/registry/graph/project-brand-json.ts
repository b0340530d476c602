import { canonicalAgentUrl } from '../../protocol/agent-url.ts';
import { isRecord, records, type JsonObject as Json } from '../../protocol/json-values.ts';
import type { AuthoritativeBrand } from '../brands/index.ts';
import type { OperatorAgent, OperatorProperty } from './sql/index.ts';

/**
 * A validated brand.json turned into the operator side of the graph: the house and its brands
 * (authoritative brand records), the agents the operator runs and the properties it declares with
 * their relationship. Pure, like the adagents.json projection.
 */
export interface BrandJsonProjection {
  /** Whose agents and properties these are: the house, or the domain of an agents-only file. */
  operator_domain: string;
  brands: Array<Omit<AuthoritativeBrand, 'id'>>;
  agents: OperatorAgent[];
  properties: OperatorProperty[];
}

export function projectBrandJson(domain: string, document: Json): BrandJsonProjection {
  const house = isRecord(document['house']) ? document['house'] : undefined;
  if (!house) return { operator_domain: domain, brands: [], agents: agentsOf(document['agents']), properties: [] };

  const houseDomain = String(house['domain']).toLowerCase();
  const claimed = new Set<string>();
  const brands: BrandJsonProjection['brands'] = [];
  const properties: OperatorProperty[] = [];
  const declared = records(document['brands']);
  for (const brand of declared) {
    const key = String(brand['id'] ?? '');
    const owned = records(brand['properties']);
    for (const property of owned) {
      properties.push({
        brand_id: key,
        property_type: String(property['type']),
        identifier: String(property['identifier']).toLowerCase(),
        relationship: typeof property['relationship'] === 'string' ? property['relationship'] : 'owned',
        entry: property,
      });
    }
    // Once each: a site listed twice (in two cases, say) is one alias, not two rows for one domain.
    const websites = [
      ...new Set(
        owned
          .filter((p) => p['type'] === 'website' && (p['relationship'] ?? 'owned') === 'owned')
          .map((p) => String(p['identifier']).toLowerCase()),
      ),
    ];
    const own =
      hostOf(brand['url']) ??
      websites[0] ??
      (declared.length === 1 || brand['keller_type'] === 'master' ? houseDomain : undefined);
    // A brand with no domain of its own cannot be resolved; the first brand to claim a domain keeps it.
    if (own === undefined || claimed.has(own)) continue;
    claimed.add(own);
    const aliases = websites.filter((w) => w !== own && !claimed.has(w));
    for (const alias of aliases) claimed.add(alias);
    brands.push({
      domain: own,
      brand_name: nameOf(brand['names']) ?? key,
      brand_key: key || null,
      keller_type: typeof brand['keller_type'] === 'string' ? brand['keller_type'] : null,
      house_domain: houseDomain,
      manifest: manifestOf(brand),
      aliases,
    });
  }
  if (!claimed.has(houseDomain)) {
    brands.push({
      domain: houseDomain,
      brand_name: String(house['name']),
      brand_key: null,
      keller_type: 'master',
      house_domain: houseDomain,
      manifest: { name: String(house['name']) },
      aliases: [],
    });
  }
  return {
    operator_domain: houseDomain,
    brands,
    agents: agentsOf(house['agents']),
    properties: uniqueProperties(properties),
  };
}

function agentsOf(value: unknown): OperatorAgent[] {
  const seen = new Set<string>();
  return records(value).flatMap((entry) => {
    const id = String(entry['id']);
    if (seen.has(id)) return [];
    seen.add(id);
    const url = String(entry['url']);
    return [
      {
        agent_id: id,
        agent_type: String(entry['type']),
        url,
        url_canonical: canonicalAgentUrl(url) ?? url,
        jwks_uri: typeof entry['jwks_uri'] === 'string' ? entry['jwks_uri'] : null,
        entry,
      },
    ];
  });
}

function uniqueProperties(properties: OperatorProperty[]): OperatorProperty[] {
  return [
    ...new Map(properties.map((p) => [`${p.brand_id}\u0000${p.property_type}\u0000${p.identifier}`, p])).values(),
  ];
}

/** The brand identity fields resolve and the registry show; the rest stays in the stored document. */
function manifestOf(brand: Json): Json {
  const manifest: Json = {};
  const name = nameOf(brand['names']);
  if (name) manifest['name'] = name;
  for (const field of ['logos', 'fonts', 'tone', 'tagline', 'industries', 'target_audience', 'url']) {
    if (brand[field] !== undefined) manifest[field] = brand[field];
  }
  const colors = colorsOf(brand['colors']);
  if (colors.length > 0) manifest['colors'] = colors;
  return manifest;
}

const hex = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;

/**
 * brand.json's palette is an object of roles (`{"primary": "#FF6600", "accent": ["#..", ".."]}`);
 * a brand manifest lists colors as `[{hex, type}]`, the role becoming the type.
 */
function colorsOf(palette: unknown): Array<{ hex: string; type: string }> {
  if (!isRecord(palette)) return [];
  return Object.entries(palette)
    .flatMap(([role, value]) =>
      (Array.isArray(value) ? value : [value])
        .filter((v): v is string => typeof v === 'string' && hex.test(v))
        .map((v) => ({ hex: v, type: role })),
    )
    .slice(0, 50);
}

/** Localized names are one-key objects (`{"en": "Acme"}`); the first one names the brand. */
function nameOf(names: unknown): string | undefined {
  const first = records(names)[0];
  const value = first ? Object.values(first)[0] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function hostOf(url: unknown): string | undefined {
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  return new URL(url).hostname.replace(/^www\./, '') || undefined;
}
