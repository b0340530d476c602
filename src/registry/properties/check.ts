import { normalizeDomain } from '../../protocol/domain.ts';
import { ApError, type ErrorCode, type FieldIssue } from '../../protocol/errors.ts';
import { infrastructureOf, type Infrastructure } from './ad-infrastructure.ts';
import type { PropertySource } from './sql.ts';

/** What the registry knows of a publisher domain it has an entry for: whose word, still standing, authorizing whom. */
export interface RegistryFacts {
  source: PropertySource;
  /** `stale` when the publisher's adagents.json is gone or invalid. */
  status: 'active' | 'stale';
  /** Agents the entry authorizes. */
  agent_count: number;
  /** The publisher's own adagents.json, still there and valid. */
  verified: boolean;
}

export interface PropertyCheck {
  summary: { total: number; remove: number; modify: number; assess: number; ok: number };
  remove: Array<
    | { input: string; canonical: string; reason: 'duplicate' }
    | ({ input: string; canonical: string; reason: 'blocked' } & Infrastructure)
  >;
  modify: Array<{ input: string; canonical: string; reason: string; known: boolean } & Partial<RegistryFacts>>;
  assess: Array<{ domain: string }>;
  ok: Array<{ domain: string } & RegistryFacts>;
}

/** Prefixes that name a site's web or mobile host rather than the publisher: the list keeps the domain. */
const hostPrefixes = ['www.', 'm.'];

/** How many bad entries a refusal names; the message says how many there were. */
const namedIssues = 100;

/** A domain of the list: as given, its normal form, and what normalizing changed. */
interface Read {
  input: string;
  canonical: string;
  changes: string[];
}

/**
 * Reads every domain of the list as the registry keys them (`normalizeDomain`), then drops a
 * leading `www.` or `m.`. One that is not a domain at all fails the whole list, naming the bad
 * ones (the first hundred), so nothing is half-checked.
 */
export function readDomains(domains: string[]): Read[] {
  const issues: FieldIssue[] = [];
  const codes = new Set<ErrorCode>();
  const read: Read[] = [];
  domains.forEach((input, i) => {
    try {
      read.push(canonicalOf(input, normalizeDomain(input, { field: `domains.${i}`, in: 'body' })));
    } catch (err) {
      if (!(err instanceof ApError)) throw err;
      codes.add(err.code);
      issues.push({ in: 'body', field: `domains.${i}`, message: err.message });
    }
  });
  if (issues.length > 0) {
    const code = codes.size === 1 ? [...codes][0]! : 'invalid_domain';
    const more = issues.length > namedIssues ? ` (the first ${namedIssues} are named)` : '';
    throw new ApError(code, `${issues.length} of the domains are not valid${more}: ${issues[0]!.message}`, {
      details: issues.slice(0, namedIssues),
    });
  }
  return read;
}

function canonicalOf(input: string, normalized: string): Read {
  const changes =
    normalized === input ? [] : ['normalized the spelling (case, scheme, spaces, trailing slash or dot, IDNA)'];
  let canonical = normalized;
  for (let stripped = true; stripped;) {
    stripped = false;
    for (const prefix of hostPrefixes) {
      const rest = canonical.slice(prefix.length);
      // Never down to a single label: `m.example` is a domain, not a prefix of one.
      if (canonical.startsWith(prefix) && rest.includes('.')) {
        canonical = rest;
        changes.push(`removed the ${prefix} prefix`);
        stripped = true;
      }
    }
  }
  return { input, canonical, changes };
}

/**
 * Sorts the list into its four buckets, each domain into one: `remove` (a repeat of an earlier
 * domain once normalized, or advertising infrastructure), `modify` (normalizing changed it; the
 * registry's facts when it knows the canonical domain), `ok` (known as given) and `assess`
 * (unknown). `known` holds the registry's entries among the canonical domains.
 */
export function bucket(read: Read[], known: ReadonlyMap<string, RegistryFacts>): PropertyCheck {
  const check: PropertyCheck = {
    summary: { total: read.length, remove: 0, modify: 0, assess: 0, ok: 0 },
    remove: [],
    modify: [],
    assess: [],
    ok: [],
  };
  const seen = new Set<string>();
  for (const { input, canonical, changes } of read) {
    if (seen.has(canonical)) {
      check.remove.push({ input, canonical, reason: 'duplicate' });
      continue;
    }
    seen.add(canonical);
    const infrastructure = infrastructureOf(canonical);
    const facts = known.get(canonical);
    if (infrastructure) check.remove.push({ input, canonical, reason: 'blocked', ...infrastructure });
    else if (changes.length > 0)
      check.modify.push({ input, canonical, reason: changes.join('; '), known: facts !== undefined, ...facts });
    else if (facts) check.ok.push({ domain: canonical, ...facts });
    else check.assess.push({ domain: canonical });
  }
  for (const name of ['remove', 'modify', 'assess', 'ok'] as const) check.summary[name] = check[name].length;
  return check;
}

/** The canonical domains the registry must be asked about: each once, infrastructure left out. */
export function domainsToLookUp(read: Read[]): string[] {
  return [...new Set(read.map((r) => r.canonical))].filter((d) => !infrastructureOf(d));
}
