import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { searchRoute } from './routes/search.ts';

export interface SearchOptions {
  ctx: AppContext;
}

/** `GET /api/search`: one box that finds brands, publishers and the properties they declare. */
export const searchPlugin = fp<SearchOptions>(
  async (app, { ctx }) => {
    searchRoute(app, ctx.db);
  },
  { name: 'search' },
);
