import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';
import { signInLimit } from '../auth/index.ts';
import { renderErrorsAsPages } from './error-pages.ts';
import { createKeyRoute } from './routes/create-key.ts';
import { listKeysRoute } from './routes/list-keys.ts';
import { revokeKeyRoute } from './routes/revoke-key.ts';
import { signInRoutes } from './routes/sign-in.ts';
import { signOutRoute } from './routes/sign-out.ts';

/**
 * The dashboard: server-rendered pages where signed-in users manage their organization's API
 * keys. Encapsulated, so form bodies, cookies and HTML error pages exist only under /dashboard
 * and the API keeps taking JSON alone.
 */
export const dashboardPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx: { db, config } }) => {
    await app.register(async (dashboard) => {
      await dashboard.register(formbody, { bodyLimit: 16 * 1024 });
      await dashboard.register(cookie);
      renderErrorsAsPages(dashboard);
      signInRoutes(dashboard, db, signInLimit(config));
      signOutRoute(dashboard, db);
      listKeysRoute(dashboard, db);
      createKeyRoute(dashboard, db);
      revokeKeyRoute(dashboard, db);
    });
  },
  { name: 'dashboard' },
);
