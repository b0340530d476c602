import type { FastifyPluginAsync } from 'fastify';
import type { IndexSource } from '../lookups/index.ts';
import { getPublisherRoute } from './routes/get-publisher.ts';
import { listPublishersRoute } from './routes/list-publishers.ts';

export interface PublishersOptions {
  /** The lookups' authorization index. */
  index: IndexSource;
}

/**
 * Publishers (spec sections 1 and 4): one publisher's inventory and authorized agents, and the
 * listing of all, answered from the lookups' authorization index (no database I/O on a request).
 */
export const publishersPlugin: FastifyPluginAsync<PublishersOptions> = async (app, { index }) => {
  getPublisherRoute(app, index);
  listPublishersRoute(app, index);
};
