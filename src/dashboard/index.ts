import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.ts';
import { signInLimit } from '../auth/index.ts';
import type { EnrollmentContext } from '../registry/agents/index.ts';
import { renderErrorsAsPages } from '../http/error-pages.ts';
import { KEYS_PATH } from './navigation.ts';
import { messageView } from './views.ts';
import { changeAgentRoute } from './routes/change-agent.ts';
import { createKeyRoute } from './routes/create-key.ts';
import { enrollAgentRoute } from './routes/enroll-agent.ts';
import { listAgentsRoute } from './routes/list-agents.ts';
import { listKeysRoute } from './routes/list-keys.ts';
import { manageAgentRoute } from './routes/manage-agent.ts';
import { removeAgentRoute } from './routes/remove-agent.ts';
import { revokeKeyRoute } from './routes/revoke-key.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { signOutRoute } from './routes/sign-out.ts';

export interface DashboardOptions {
  ctx: AppContext;
  /** The agent catalog's enrollment: the dashboard enrolls as the API does, first probe queued. */
  enrollment: EnrollmentContext;
}

/**
 * The dashboard: server-rendered pages where signed-in users manage their organization's API
 * keys and enrolled agents. Encapsulated, so form bodies, cookies and HTML error pages exist only
 * under /dashboard and the API keeps taking JSON alone.
 */
export const dashboardPlugin: FastifyPluginAsync<DashboardOptions> = async (
  dashboard,
  { ctx: { db, config }, enrollment },
) => {
  await dashboard.register(formbody, { bodyLimit: 16 * 1024 });
  await dashboard.register(cookie);
  renderErrorsAsPages(dashboard, (title, message) => messageView(title, message));
  signInRoutes(dashboard, db, signInLimit(config));
  signOutRoute(dashboard, db);
  listKeysRoute(dashboard, db);
  createKeyRoute(dashboard, db);
  revokeKeyRoute(dashboard, db);
  listAgentsRoute(dashboard, enrollment);
  enrollAgentRoute(dashboard, enrollment);
  manageAgentRoute(dashboard, enrollment);
  changeAgentRoute(dashboard, enrollment);
  removeAgentRoute(dashboard, enrollment);
  // The site's navigation links the dashboard itself: its first section (sign-in first when needed).
  dashboard.get('/dashboard', { schema: { hide: true } }, async (_request, reply) => reply.redirect(KEYS_PATH));
};
