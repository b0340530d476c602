import { decodeCursor, encodeCursor } from '../../protocol/cursor.ts';
import { toUnicodeDomain } from '../../protocol/domain.ts';
import { ApError } from '../../protocol/errors.ts';
import { compare, firstAfter, type AuthorizationIndex } from '../lookups/index.ts';
import { publisherCounts } from './publisher-view.ts';
import type { PublishersQuery } from './schemas.ts';

/** A publisher's place in a listing: how well it matches the search (0 best), then its domain. */
interface Place {
  rank: number;
  domain: string;
}

const byPlace = (a: Place, b: Place) => a.rank - b.rank || compare(a.domain, b.domain);

/**
 * The publisher listing: keyset pages over the index's domains in order, so a page starts after the
 * last publisher the previous one showed, wherever publishers were added or removed meanwhile.
 * With `q`, the order is by how the domain matches, then by domain: still a fixed order for the
 * query, so the same cursor holds.
 */
export class PublisherListing {
  /** Unicode forms of internationalized domains, computed once each (few, and never change). */
  private readonly unicode = new Map<string, string>();

  list(index: AuthorizationIndex, query: PublishersQuery) {
    const limit = query.limit ?? 100;
    const key = decodeCursor(query.cursor, ['domain']);
    const after = key === undefined ? undefined : { domain: key['domain']!, rank: rankOf(key['rank']) };
    const wanted = (domain: string) =>
      query.status === undefined || (index.publisher(domain)!.stale ? 'stale' : 'active') === query.status;
    const q = query.q === undefined ? undefined : searchTerm(query.q);

    let places: readonly Place[];
    let start: number;
    let total: number;
    if (q === undefined) {
      const domains = index.publisherDomains();
      // The common case reads only the page: a binary search, then the domains after it.
      const from = after === undefined ? 0 : firstAfter(domains, after.domain, compare);
      const page: Place[] = [];
      for (let i = from; i < domains.length && page.length <= limit; i++)
        if (wanted(domains[i]!)) page.push({ rank: 0, domain: domains[i]! });
      places = page;
      start = 0;
      const { publishers, stalePublishers } = index.totals();
      total =
        query.status === undefined
          ? publishers
          : query.status === 'stale'
            ? stalePublishers
            : publishers - stalePublishers;
    } else {
      places = this.matches(index.publisherDomains(), q).filter((p) => wanted(p.domain));
      start = after === undefined ? 0 : firstAfter(places, after, byPlace);
      total = places.length;
    }
    const page = places.slice(start, start + limit);
    const has_more = places.length > start + limit;
    const publishers = page.map(({ domain }) => {
      const file = index.publisher(domain)!;
      return {
        domain,
        status: file.stale ? ('stale' as const) : ('active' as const),
        stale_reason: file.reason,
        manager_domain: file.managerDomain,
        ...publisherCounts(index, domain),
        // As the protocol's registry client reads a publisher: found by crawling its adagents.json, valid while not stale.
        source: 'discovered' as const,
        has_valid_adagents: !file.stale,
        ...(file.discoveredAt ? { discovered_at: file.discoveredAt } : {}),
      };
    });
    const last = page.at(-1);
    return {
      publishers,
      count: publishers.length,
      total,
      cursor: has_more && last ? encodeCursor({ domain: last.domain, rank: String(last.rank) }) : null,
      has_more,
      sources: { registered: 0, discovered: publishers.length },
    };
  }

  /** Domains containing `q`, best matches first: those starting with it, then those with a label starting with it, then the rest. */
  private matches(domains: readonly string[], q: string): Place[] {
    const ranks: Place[][] = [[], [], []];
    const unicodeQuery = /\P{ASCII}/u.test(q);
    for (const domain of domains) {
      const text = unicodeQuery ? this.unicodeOf(domain) : domain;
      const at = text.indexOf(q);
      if (at < 0) continue;
      const rank = at === 0 ? 0 : text.includes(`.${q}`) ? 1 : 2;
      ranks[rank]!.push({ rank, domain });
    }
    return ranks.flat();
  }

  private unicodeOf(domain: string): string {
    if (!domain.includes('xn--')) return domain;
    let found = this.unicode.get(domain);
    if (found === undefined) this.unicode.set(domain, (found = toUnicodeDomain(domain)));
    return found;
  }
}

/** What people type or paste: any case, a URL (cut to its host), a trailing dot. */
function searchTerm(raw: string): string {
  const term = raw
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/\.$/, '');
  if (term === '')
    throw new ApError(
      'validation_failed',
      'Invalid querystring.q: nothing to search for once the URL parts are removed.',
      { details: [{ in: 'querystring', field: 'q', message: 'must name part of a domain' }] },
    );
  return term;
}

function rankOf(value: string | undefined): number {
  if (value === undefined || !/^[0-2]$/.test(value))
    throw new ApError('invalid_cursor', 'The cursor is malformed; pass the cursor from the previous page unchanged.');
  return Number(value);
}
