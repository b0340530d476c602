import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../../clock.ts';
import type { Database } from '../../../db/database.ts';
import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { ComplianceDetailSchema, complianceDetail } from '../probing/index.ts';
import { findAgent } from '../sql.ts';
import { canSee, viewerOf } from '../visibility.ts';

/**
 * `GET /api/registry/agents/{url}/compliance`: an enrolled agent's compliance checks and their
 * history, to whoever may see the agent in the list (visibility.ts); 404 `not_found` otherwise,
 * the same answer as for an agent not enrolled, so a hidden agent's existence is not revealed.
 */
export function agentComplianceRoute(app: FastifyInstance, db: Database, clock: Clock, intervalMs: () => number): void {
  app.get<{ Params: { url: string } }>(
    '/api/registry/agents/:url/compliance',
    {
      config: { auth: 'optional' },
      schema: {
        summary: 'An agent’s compliance checks and their history',
        description:
          'The agent URL is URL-encoded into the path (`https%3A%2F%2Fsales.example%2Fmcp`) and compared in canonical form. The summary the list’s compliance=true and the feed carry ' +
          '(status, tracks, streak_days, headline, the badge), the checks of the last probe, since when the status holds, the last passing and failing probes, and the latest changes ' +
          'of the checks. Visible to whoever may see the agent in the list; 404 not_found for an agent not enrolled or hidden from you.',
        tags: ['Agent Discovery'],
        params: Type.Object({
          url: Type.String({ minLength: 1, maxLength: 2048, description: 'The agent’s URL, URL-encoded.' }),
        }),
        response: { 200: ComplianceDetailSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const url = canonicalAgentUrl(request.params.url);
      if (url === undefined) {
        throw new ApError(
          'validation_failed',
          'Invalid params.url: must be an absolute URL, URL-encoded into the path.',
          { details: [{ in: 'params', field: 'url', message: 'must be an absolute URL' }] },
        );
      }
      const agent = await findAgent(db, url);
      const detail =
        agent && canSee(viewerOf(request.principal), agent)
          ? await complianceDetail(db, url, clock.now(), intervalMs())
          : undefined;
      if (!detail) throw new ApError('not_found', `No agent ${url} is enrolled in the catalog you may see.`);
      return detail;
    },
  );
}
