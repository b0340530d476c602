import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Database } from '../../../db/database.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { DecisionBody, ReviewParams } from '../schemas.ts';
import { decideReview, type ReviewAppliers } from '../service.ts';

export function decideReviewRoute(app: FastifyInstance, db: Database, appliers: ReviewAppliers): void {
  app.post<{ Params: Static<typeof ReviewParams>; Body: Static<typeof DecisionBody> }>(
    '/api/admin/reviews/:id/decision',
    {
      config: { auth: 'required', access: 'registry-admin' },
      schema: {
        summary: 'Approve or reject a held save',
        description:
          'Approving applies the held save as its submitter sent it, in the same transaction as the decision, and lets later saves of the domain through; rejecting only records the decision. A review is decided once (409 after). Registry administrators only.',
        tags: ['Administration'],
        params: ReviewParams,
        body: DecisionBody,
        response: {
          200: Type.Ref('HomographReview', { description: 'The decided review.' }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    async (request) => decideReview(db, appliers, request.params.id, request.body, request.principal!),
  );
}
