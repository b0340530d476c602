import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeRequestDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { toolLimit } from '../limits.ts';
import { manifestRefs } from '../manifest-refs.ts';
import { ManifestRefs, ManifestRefsQuery, manifestTypes } from '../schemas/index.ts';

/** `GET /api/manifest-refs/lookup?domain=&type=`: where a domain's manifests live, from what the registry keeps. */
export function manifestRefsLookupRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: Static<typeof ManifestRefsQuery> }>(
    '/api/manifest-refs/lookup',
    {
      config: { rateLimit: toolLimit(ctx.config, 'manifest-refs') },
      schema: {
        summary: 'Where a domain’s manifests live',
        description:
          'For the domain’s adagents.json and brand.json: the well-known address, how the crawler’s last fetch went (`found`, `absent`, `invalid`, `transient`, or `not_fetched`) and why, ' +
          'the pointers it followed (`authoritative_location` targets, brand.json `house` pointers), where the document that counts was read, and when it was fetched and last stored; ' +
          'the house the registry’s brand record names, the publisher record, and the crawl schedule. From what the registry keeps: nothing is fetched. ' +
          'Beside that, as the protocol’s registry client reads it: `success` and `found` (the manifest asked for by `type` has been found), and with them `reference` (`manifest_url`, `verification_status`). ' +
          `A domain the registry knows nothing of answers with every manifest \`not_fetched\` and \`found: false\` (POST /api/registry/crawl-request asks for a crawl). ${ctx.config.limits.adagentsToolsPerMinute} requests a minute per IP (429 with retry_after).`,
        tags: ['Validation Tools'],
        querystring: ManifestRefsQuery,
        response: { 200: ManifestRefs, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const domain = normalizeRequestDomain(request.query.domain, { field: 'domain', in: 'querystring' });
      const { type } = request.query;
      return manifestRefs(ctx.db, domain, type === undefined ? undefined : manifestTypes[type]);
    },
  );
}
