import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import type { RateLimitRule } from '../../../http/rate-limit/rules.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { requirePublicDomain } from '../../documents/public-domain.ts';
import { CrawlRequestAccepted, CrawlRequestBody } from '../schemas.ts';
import * as sql from '../sql.ts';

/**
 * `POST /api/registry/crawl-request`: checks the domain (format, then DNS: private and reserved
 * addresses are refused before anything is queued), queues it due now and answers 202; the crawl
 * runs on whichever instance's worker claims it.
 */
export function crawlRequestRoute(app: FastifyInstance, ctx: AppContext, wake: () => void): void {
  const { limits } = ctx.config;
  const rules: RateLimitRule[] = [
    // The asker's budget first: requests for a domain whose window is held wait their turn, and
    // only as many of one asker's as its budget allows may wait.
    { name: 'crawl-request', max: limits.crawlRequestsPerHourPerPrincipal, windowSeconds: 3600, by: 'principal' },
    // Only a queued crawl uses the domain's window: a refused request must not block everyone else.
    {
      name: 'crawl-request-domain',
      max: 1,
      windowSeconds: limits.crawlRequestDomainWindowSeconds,
      by: 'domain',
      counts: 'accepted',
    },
  ];
  app.post<{ Body: Static<typeof CrawlRequestBody> }>(
    '/api/registry/crawl-request',
    {
      config: { auth: 'required', rateLimit: rules },
      schema: {
        summary: 'Ask for a domain to be crawled',
        description:
          'Queues a crawl of the domain’s adagents.json and brand.json. The domain must resolve to public addresses. One request per domain per 5 minutes and 30 per hour per user (429 with retry_after).',
        tags: ['Agent Discovery'],
        body: CrawlRequestBody,
        response: { 202: CrawlRequestAccepted, ...errorResponses(400, 401, 415, 429) },
      },
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      await requirePublicDomain(domain, ctx.fetcher, { in: 'body', field: 'domain' });
      await sql.enqueue(ctx.db, [domain], ctx.clock.now());
      wake();
      return reply
        .code(202)
        .send({ message: `Crawl of ${domain} queued; changes appear in the feed as it completes.`, domain });
    },
  );
}
