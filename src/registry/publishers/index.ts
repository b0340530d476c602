import fp from 'fastify-plugin';
import { getPublisherRoute } from './routes/get-publisher.ts';
import { listPublishersRoute } from './routes/list-publishers.ts';

/**
 * Publishers (spec sections 1 and 4): one publisher's inventory and authorized agents, and the
 * listing of all, answered from the lookups' authorization index (no database I/O on a request).
 * Registers after the lookups plugin, whose `app.authorizationIndex` it reads.
 */
export const publishersPlugin = fp(
  async (app) => {
    getPublisherRoute(app, app.authorizationIndex);
    listPublishersRoute(app, app.authorizationIndex);
  },
  { name: 'publishers', dependencies: ['lookups'] },
);
