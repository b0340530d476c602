import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { searchRoute } from './route.ts';

/** `GET /api/search`, across brands, publishers and the properties they declare. */
export const searchPlugin = fp<{ ctx: AppContext }>(async (app, { ctx }) => searchRoute(app, ctx), { name: 'search' });
