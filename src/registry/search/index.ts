import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { searchRoute } from './routes/search.ts';

export interface SearchOptions {
  ctx: AppContext;
}

/** `GET /api/search`: one box that finds brands, publishers and the properties they declare. */
export const searchPlugin: FastifyPluginAsync<SearchOptions> = async (app, { ctx }) => {
  searchRoute(app, ctx.db);
};
