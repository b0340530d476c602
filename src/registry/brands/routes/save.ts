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
import { saveCommunity, saveCommunityIn, type SaveInput } from '../service.ts';

export function saveRoute(app: FastifyInstance, ctx: AppContext): void {
  const { db, config } = ctx;
  const proof = proofCheck(ctx);
  app.post<{ Body: Static<typeof SaveBody> }>(
    '/api/brands/save',
    {
      config: { auth: 'required', access: 'organization', rateLimit: saveLimits(config) },
      schema: {
        summary: 'Save a community brand',
        description: 'Creates the brand or adds a revision to it. Brands managed by their own brand.json answer 409.',
        tags: ['Brand Resolution'],
        security: [{ bearer: [] }],
        body: SaveBody,
        response: { 200: SaveResult, 201: SaveResult, 202: HeldForReview, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      const held = await screenSave(ctx, { kind: 'brand', domain, payload: request.body, principal: request.principal! });
      if (held) return reply.code(202).send(held);
      const { row, created } = await saveCommunity(db, toInput(domain, request.body), request.principal!, proof);
      return reply.code(created ? 201 : 200).send({
        success: true,
        message: created ? `Brand ${domain} created.` : `Brand ${domain} updated to revision ${row.revision}.`,
        domain,
        id: row.id,
        ...(created ? {} : { revision_number: row.revision }),
      });
    },
  );
}

function toInput(domain: string, body: Static<typeof SaveBody>): SaveInput {
  return { domain, brand_name: body.brand_name, manifest: body.brand_manifest ?? {} };
}

/** Applies a held brand save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldBrand(ctx: AppContext): ReviewApplier {
  const proof = proofCheck(ctx);
  return (tx, held) => saveCommunityIn(tx, toInput(held.domain, held.payload as Static<typeof SaveBody>), held.submitter, proof);
}
