import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { proofCheck } from '../../ownership/index.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { SaveBody, SaveResult } from '../schemas.ts';
import { HeldForReview } from '../../homographs/schemas.ts';
import { screenSave } from '../../homographs/screen.ts';
import type { ReviewApplier } from '../../homographs/index.ts';
import type { EditableFields } from '../sql.ts';
import { saveCommunity, saveCommunityIn } from '../service.ts';

export function saveRoute(app: FastifyInstance, ctx: AppContext): void {
  const { db, config } = ctx;
  const proof = proofCheck(ctx);
  app.post<{ Body: Static<typeof SaveBody> }>(
    '/api/properties/save',
    {
      config: { auth: 'required', access: 'organization', rateLimit: saveLimits(config) },
      schema: {
        summary: 'Save a community property entry',
        description: 'Creates the entry or adds a revision to it. Entries managed by the publisher’s own adagents.json answer 409.',
        tags: ['Property Resolution'],
        security: [{ bearer: [] }],
        body: SaveBody,
        response: { 200: SaveResult, 201: SaveResult, 202: HeldForReview, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.publisher_domain, { field: 'publisher_domain', in: 'body' });
      const held = await screenSave(ctx, { kind: 'property', domain, payload: request.body, principal: request.principal! });
      if (held) return reply.code(202).send(held);
      const { row, created } = await saveCommunity(db, domain, toFields(request.body), request.principal!, proof);
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created ? `Property entry for ${domain} created.` : `Property entry for ${domain} updated to revision ${row.revision}.`,
        id: row.id,
        ...(created ? {} : { revision_number: row.revision }),
      });
    },
  );
}

function toFields({ authorized_agents, properties = [], contact }: Static<typeof SaveBody>): EditableFields {
  return { authorized_agents, inventory: properties, contact: contact ?? null };
}

/** Applies a held property save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldProperty(ctx: AppContext): ReviewApplier {
  const proof = proofCheck(ctx);
  return (tx, held) => saveCommunityIn(tx, held.domain, toFields(held.payload as Static<typeof SaveBody>), held.submitter, proof);
}
