import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { ConfigError, type Config } from '../../config.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import { domainSkeleton, labelSkeleton, registrableLabel, textSkeleton } from './skeleton.ts';

/**
 * The operator's deny list of high-value brands (`AP_BRAND_DENY_LIST`, a JSON or YAML file):
 *
 *     [{"name": "paypal", "domains": ["paypal.com", "paypal.me"]}]
 *
 * A submitted domain whose registrable label looks like a listed brand's name (or like the label
 * of one of its domains), or whose whole name looks like one of its domains, is held for review
 * unless it is one of that brand's own domains (or a subdomain of one).
 */
export interface DeniedBrand {
  /** As the file writes it, e.g. "PayPal". */
  name: string;
  /** Normalized (ASCII) domains the brand owns. */
  domains: string[];
}

export interface DenyList {
  brands: readonly DeniedBrand[];
  /** Skeleton of a name or of a domain's registrable label → the brands it belongs to. */
  byLabel: ReadonlyMap<string, readonly DeniedBrand[]>;
  /** Skeleton of a whole domain → the brands owning a domain with that skeleton. */
  byDomain: ReadonlyMap<string, readonly DeniedBrand[]>;
}

export const emptyDenyList: DenyList = { brands: [], byLabel: new Map(), byDomain: new Map() };

/** What is wrong with a deny-list file; `loadBrandDenyList` turns it into a ConfigError. */
export class DenyListError extends Error {
  override name = 'DenyListError';
}

type DenyListSetting = Pick<Config, 'brandDenyListPath'>;

// Keyed by the configuration object, so each app (and each test server) screens with its own list.
const loaded = new WeakMap<DenyListSetting, DenyList>();

/**
 * Reads the file `AP_BRAND_DENY_LIST` names, for saves screened under this configuration. The
 * homographs plugin calls it as it registers, so a bad file stops the start with a ConfigError
 * that names the setting, the file and the problem.
 */
export function loadBrandDenyList(config: DenyListSetting): DenyList {
  const path = config.brandDenyListPath;
  let list = emptyDenyList;
  if (path !== undefined) {
    try {
      list = readDenyList(path);
    } catch (err) {
      if (err instanceof DenyListError) throw new ConfigError(`AP_BRAND_DENY_LIST: ${err.message}`);
      throw err;
    }
  }
  loaded.set(config, list);
  return list;
}

/** The deny list `loadBrandDenyList` read for this configuration. */
export function brandDenyListOf(config: DenyListSetting): DenyList {
  const list = loaded.get(config);
  if (list) return list;
  // Screening without the operator's list would let look-alikes through unnoticed.
  if (config.brandDenyListPath !== undefined)
    throw new Error('AP_BRAND_DENY_LIST was never read: register the homographs plugin before serving saves');
  return emptyDenyList;
}

/** Reads and checks the file: `.json` as JSON, anything else as YAML (which JSON also is). */
export function readDenyList(path: string): DenyList {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new DenyListError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseDenyList(text, { format: extname(path).toLowerCase() === '.json' ? 'json' : 'yaml', origin: path });
}

export function parseDenyList(
  text: string,
  { format, origin = 'the deny list' }: { format: 'json' | 'yaml'; origin?: string },
): DenyList {
  let data: unknown;
  try {
    data = format === 'json' ? JSON.parse(text) : parseYaml(text);
  } catch (err) {
    throw new DenyListError(
      `${origin} is not valid ${format === 'json' ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`,
    );
  }
  if (!Array.isArray(data))
    throw new DenyListError(`${origin} must be a list of brands, like [{"name": "paypal", "domains": ["paypal.com"]}]`);
  const brands = data.map((entry, i) => brandAt(entry, `${origin}: brand ${i + 1}`));
  return index(brands);
}

function brandAt(entry: unknown, where: string): DeniedBrand {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
    throw new DenyListError(`${where} must be an object with "name" and "domains"`);
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).filter((k) => k !== 'name' && k !== 'domains');
  if (unknown.length > 0)
    throw new DenyListError(`${where} has unknown field "${unknown[0]}" (allowed: name, domains)`);
  const { name, domains = [] } = fields;
  if (typeof name !== 'string' || nameKey(name) === '')
    throw new DenyListError(`${where} needs a "name" with letters or digits`);
  if (!Array.isArray(domains) || domains.some((d) => typeof d !== 'string'))
    throw new DenyListError(`${where} ("${name}"): "domains" must be a list of domain names`);
  const normalized = (domains as string[]).map((d) => {
    try {
      return normalizeDomain(d);
    } catch (err) {
      if (err instanceof ApError) throw new DenyListError(`${where} ("${name}"): ${err.message}`);
      throw err;
    }
  });
  return { name, domains: [...new Set(normalized)] };
}

/** A name as a domain label would spell it: "American Express" → "americanexpress", "AT&T" → "att". */
function nameKey(name: string): string {
  return name.replace(/[^\p{L}\p{M}\p{N}-]/gu, '');
}

function index(brands: DeniedBrand[]): DenyList {
  const byLabel = new Map<string, DeniedBrand[]>();
  const byDomain = new Map<string, DeniedBrand[]>();
  const add = (map: Map<string, DeniedBrand[]>, key: string, brand: DeniedBrand) => {
    const list = map.get(key) ?? [];
    if (!list.includes(brand)) list.push(brand);
    map.set(key, list);
  };
  for (const brand of brands) {
    add(byLabel, textSkeleton(nameKey(brand.name)), brand);
    for (const domain of brand.domains) {
      add(byLabel, labelSkeleton(registrableLabel(domain)), brand);
      add(byDomain, domainSkeleton(domain), brand);
    }
  }
  return { brands, byLabel, byDomain };
}

export type DenyListMatch = { own: true; brand: DeniedBrand } | { own: false; brand: DeniedBrand };

/**
 * How the domain relates to the deny list: one of a listed brand's own domains (or below one),
 * a look-alike of a listed brand, or unrelated (undefined). Being a brand's own wins over looking
 * like another.
 */
export function matchDenyList(list: DenyList, asciiDomain: string): DenyListMatch | undefined {
  if (list.brands.length === 0) return undefined;
  const candidates = new Set([
    ...(list.byLabel.get(labelSkeleton(registrableLabel(asciiDomain))) ?? []),
    ...(list.byDomain.get(domainSkeleton(asciiDomain)) ?? []),
  ]);
  if (candidates.size === 0) return undefined;
  for (const brand of candidates) {
    if (brand.domains.some((own) => asciiDomain === own || asciiDomain.endsWith(`.${own}`)))
      return { own: true, brand };
  }
  return { own: false, brand: candidates.values().next().value! };
}
