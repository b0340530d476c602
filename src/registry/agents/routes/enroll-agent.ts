import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../../context.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { saveLimits } from '../../limits.ts';
import { organizationWrite } from '../../organization-write.ts';
import { enrollAgent, type EnrollmentContext } from '../enrollment.ts';
import { entryOf } from '../entry.ts';
import { EnrollBody } from '../schemas/index.ts';

/** `POST /api/registry/agents`: a member organization enrolls an agent it operates. */
export function enrollAgentRoute(app: FastifyInstance, ctx: AppContext, enrollment: EnrollmentContext): void {
  app.post<{ Body: Static<typeof EnrollBody> }>(
    '/api/registry/agents',
    {
      ...organizationWrite(saveLimits(ctx.config), {
        summary: 'Enroll an agent your organization operates',
        description:
          'Adds the agent to the catalog under your organization, with the visibility given (default public). The agent’s host must be one your organization has proven control of ' +
          '(POST /api/ownership/challenges, for the host or a domain above it), within the proof window. A URL is enrolled once: 409 when it already is. ' +
          'The registry then probes it (health, get_ap_capabilities, compliance).',
        tags: ['Agent Discovery'],
        body: EnrollBody,
        response: { 201: { $ref: 'CatalogAgent' }, ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      }),
    },
    async (request, reply) => {
      const agent = await enrollAgent(enrollment, request.principal!, {
        ...request.body,
        visibility: request.body.visibility ?? 'public',
      });
      return reply.code(201).send(entryOf(agent));
    },
  );
}
