import type { FastifyInstance } from 'fastify';
import type { EnrollmentContext } from '../../registry/agents/index.ts';
import { AGENTS_PATH } from '../navigation.ts';
import { renderAgents } from './agent-pages.ts';
import { hidden } from './hidden.ts';
import { organizationPage } from './organization-page.ts';

/** The agents one of the user's organizations enrolled (`?org=slug`, else their first), and the enroll form. */
export function listAgentsRoute(app: FastifyInstance, enrollment: EnrollmentContext): void {
  app.get(AGENTS_PATH, hidden, (request, reply) =>
    organizationPage(enrollment.db, request, reply, { title: 'Agents', path: AGENTS_PATH }, (page) =>
      renderAgents(enrollment, page),
    ),
  );
}
