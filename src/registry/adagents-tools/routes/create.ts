import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { buildAdagents } from '../build-adagents.ts';
import { toolLimit } from '../limits.ts';
import { finding } from '../render.ts';
import { CreateBody, CreateQuery, Created } from '../schemas/index.ts';

/** `POST /api/adagents/create`: a schema-valid adagents.json from a publisher's properties and agents. */
export function createRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: CreateBody; Querystring: Static<typeof CreateQuery> }>(
    '/api/adagents/create',
    {
      config: { rateLimit: toolLimit(ctx.config, 'create') },
      schema: {
        summary: 'Generate an adagents.json',
        description:
          'Builds the file a publisher publishes at `/.well-known/adagents.json` from its `properties` (or `properties_from: "registry"`: those the registry holds for `publisher_domain`), ' +
          'the agents it authorizes with their selectors (an agent with neither `authorization_type` nor a selector is authorized for every property by id; one without `authorized_for` gets its selector in words), ' +
          'and optionally `contact`, `tags`, `placements`, `placement_tags`, `formats` and `catalog_etag`; agents may carry their `signing_keys` (public JWKs). ' +
          'The file is checked against schemas/3.0.6/adagents.json and by the validator (see POST /api/adagents/validate) before it is answered: ' +
          'an error in it is 400 `validation_failed` naming the body field it came from. `$schema` and `last_updated` (now) are written unless `include_schema` or `include_timestamp` is false. ' +
          'The answer carries the file twice: as `document` with its `warnings`, and as the protocol’s registry client reads it, `{success, data: {success, adagents_json, validation}, timestamp}`. ' +
          'With `download=true` the answer is the file itself, as an attachment named adagents.json. ' +
          `${ctx.config.limits.adagentsToolsPerMinute} requests a minute per IP (429 with retry_after).`,
        tags: ['Validation Tools'],
        querystring: CreateQuery,
        body: CreateBody,
        response: { 200: Created, ...errorResponses(400, 415, 429) },
      },
    },
    async (request, reply) => {
      const now = ctx.clock.now();
      const { document, warnings, publisher } = await buildAdagents(ctx.db, request.body, now);
      if (request.query.download) {
        // Sent as text, so it is the file byte for byte (indented, as people keep it), not the serializer's view of a 200.
        return reply
          .type('application/json; charset=utf-8')
          .header('content-disposition', 'attachment; filename="adagents.json"')
          .send(`${JSON.stringify(document, null, 2)}\n`);
      }
      const shown = warnings.map(finding);
      return reply.send({
        document,
        warnings: shown,
        success: true,
        data: {
          success: true,
          adagents_json: document,
          validation: { valid: true, errors: [], warnings: shown, domain: publisher ?? null },
        },
        timestamp: now.toISOString(),
      });
    },
  );
}
