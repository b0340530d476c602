import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { domainOrUndefined } from '../../../protocol/domain.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { FindQuery, FindResult } from '../schemas.ts';
import { findBrands, type FoundBrand } from '../sql.ts';

const matches = ['exact', 'prefix', 'words', 'house'] as const;

/** At most this many words of a search are matched: a name of more is rare, and each is an index lookup. */
const maxWords = 8;

/** `GET /api/brands/find`: a company's brands by name, ranked (the protocol's registry client's `findCompany`). */
export function findRoute(app: FastifyInstance, db: Database): void {
  app.get<{ Querystring: Static<typeof FindQuery> }>(
    '/api/brands/find',
    {
      schema: {
        summary: 'Find brands by name',
        description:
          'Brands whose name or domain is the search, starts with it, or holds each of its words as a word prefix, best first; then the other brands of a house that matched, so a company’s name finds its brands. Every match is read through an index, and at most 500 of each kind are ranked.',
        tags: ['Brand Resolution'],
        querystring: FindQuery,
        response: { 200: FindResult, ...errorResponses(400) },
      },
    },
    async (request) => {
      const q = request.query.q.trim();
      const words = (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, maxWords);
      // Padding must not get a one-character (match-almost-everything) search past the minimum.
      if (q.length < 2 || words.length === 0) {
        const message = 'must have at least 2 characters besides surrounding spaces, and a letter or digit';
        throw new ApError('validation_failed', `Invalid querystring.q: ${message}.`, {
          details: [{ in: 'querystring', field: 'q', message }],
        });
      }
      const found = await findBrands(db, {
        text: q.toLowerCase(),
        // The search as a domain, when it is one; a name is not.
        domain: domainOrUndefined(q) ?? null,
        // Letters and digits only, so nothing in a word is tsquery syntax.
        words: words.map((w) => `'${w}':*`).join(' & '),
        limit: request.query.limit ?? 10,
      });
      return { q, results: found.map(toResult) };
    },
  );
}

function toResult(row: FoundBrand) {
  return {
    domain: row.domain,
    canonical_domain: row.domain,
    canonical_id: row.id,
    brand_name: row.brand_name,
    house_domain: row.house_domain ?? row.domain,
    keller_type: row.keller_type ?? 'master',
    source: row.source,
    match: matches[row.rank]!,
  };
}
