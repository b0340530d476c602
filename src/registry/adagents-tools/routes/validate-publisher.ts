import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { ProbeCache } from '../../../http/probe-cache.ts';
import { normalizeRequestDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { requirePublicDomain } from '../../documents/public-domain.ts';
import { liveIndex, type IndexSource } from '../../lookups/index.ts';
import { reportCache, validatePublisherLimits } from '../limits.ts';
import { publisherReport } from '../publisher-report.ts';
import { DomainQuery, PublisherReport } from '../schemas/index.ts';

/** `GET /api/public/validate-publisher?domain=`: a publisher's live adagents.json, brand.json relationships and registry state in one report. */
export function validatePublisherRoute(app: FastifyInstance, ctx: AppContext, follower: IndexSource): void {
  const cache = new ProbeCache<Awaited<ReturnType<typeof publisherReport>>>(ctx.clock, reportCache);
  const { limits, crawler } = ctx.config;
  app.get<{ Querystring: Static<typeof DomainQuery> }>(
    '/api/public/validate-publisher',
    {
      config: { auth: 'optional', rateLimit: validatePublisherLimits(ctx.config) },
      schema: {
        summary: 'Validate a publisher domain',
        description:
          'One report: the domain’s adagents.json fetched now through the SSRF-safe client (authoritative_location followed as the crawler does; ' +
          `${crawler.timeoutMs} ms and ${crawler.maxBytes} bytes per file, at most ${crawler.maxHops} hops) and judged as POST /api/adagents/validate judges it; ` +
          'the operators whose brand.json declares its properties (with the relationship and their agents, as last crawled); and the registry’s state for it (publisher status, counts, last crawl). ' +
          'A domain resolving to a private or reserved address is 400 `domain_not_public`. Reports are kept a minute per domain. ' +
          `${limits.validatePublisherPerMinute} a minute per IP, or per user with a credential (429 with retry_after).`,
        tags: ['Validation Tools'],
        querystring: DomainQuery,
        response: { 200: PublisherReport, ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => {
      const domain = normalizeRequestDomain(request.query.domain, { field: 'domain', in: 'querystring' });
      const index = liveIndex(follower);
      return cache.get(domain, async () => {
        await requirePublicDomain(domain, ctx.fetcher, { in: 'querystring', field: 'domain' });
        return publisherReport(
          { db: ctx.db, fetcher: ctx.fetcher, index, limits: crawler, now: ctx.clock.now() },
          domain,
        );
      });
    },
  );
}
