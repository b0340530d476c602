import type { FastifyInstance, onSendHookHandler } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { normalizeDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { authoritative } from '../../entries/index.ts';
import { submitForReview } from '../../homographs/index.ts';
import { saveLimits } from '../../limits.ts';
import { organizationWrite } from '../../organization-write.ts';
import { brandKind } from '../kind.ts';
import { CommunitySubmissionBody, CommunitySubmissionQueued } from '../schemas.ts';

const SUCCESSOR = '/api/brands/save';

/** RFC 9745: when the endpoint was deprecated, as a structured-field date (2026-11-24T00:00:00Z). */
const DEPRECATED_SINCE = '@1795478400';

// Every answer says so, errors included: a client that only ever gets 400s should learn it too.
const markDeprecated: onSendHookHandler = async (_request, reply, payload) => {
  reply.header('deprecation', DEPRECATED_SINCE);
  reply.header('link', `<${SUCCESSOR}>; rel="successor-version"`);
  return payload;
};

/**
 * The legacy submission of a brand for review: the save's body, queued for a registry
 * administrator instead of saved (see `submitForReview`). Same normalization, limits (one budget
 * with the saves, so the old path adds no capacity) and refusals as a save; approval saves it as
 * the submitter through the held-save applier.
 */
export function submitCommunityRoute(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: Static<typeof CommunitySubmissionBody> }>(
    '/api/brands/discovered/community',
    {
      onSend: markDeprecated,
      ...organizationWrite(saveLimits(ctx.config), {
        summary: 'Submit a brand for review (deprecated)',
        description: `Deprecated: use \`POST ${SUCCESSOR}\`, which takes the same body. Queues the brand for a registry administrator and answers 202; nothing is saved until one approves, which saves it as the submitter (who must have proven control of the domain, as for a save). Every answer carries \`Deprecation\` (RFC 9745) and \`Link: <${SUCCESSOR}>; rel="successor-version"\`. Shares the save endpoint's rate limits.`,
        tags: ['Brand Resolution'],
        deprecated: true,
        body: CommunitySubmissionBody,
        response: { 202: CommunitySubmissionQueued, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      }),
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.domain, { field: 'domain', in: 'body' });
      // Refused now rather than at approval, where it could only fail.
      const current = (await brandKind.find(ctx.db, [domain])).get(domain);
      if (current?.source === brandKind.tables.authoritative) throw authoritative(brandKind, domain);
      const review = await submitForReview(ctx, {
        kind: 'brand',
        domain,
        payload: request.body,
        principal: request.principal!,
      });
      const lookalike = review.reason
        ? ` It looks like ${review.reason === 'deny_list' ? `the protected brand "${review.similar_to}"` : `the registered domain ${review.similar_to}`}.`
        : '';
      return reply.code(202).send({
        status: 'pending_review' as const,
        review_id: review.id,
        domain,
        reason: review.reason,
        similar_to: review.similar_to,
        message: `${domain} is queued for review by a registry administrator.${lookalike} This endpoint is deprecated: POST ${SUCCESSOR} takes the same body and saves at once.`,
        deprecated: true as const,
        successor: { method: 'POST' as const, path: SUCCESSOR },
      });
    },
  );
}
