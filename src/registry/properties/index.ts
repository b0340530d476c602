import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { propertyHistoryRoute } from './routes/history.ts';
import { registryRoute } from './routes/registry.ts';
import { resolveBulkRoute } from './routes/resolve-bulk.ts';
import { resolveRoute } from './routes/resolve.ts';
import { rollbackRoute } from './routes/rollback.ts';
import { saveRoute } from './routes/save.ts';
import { validateRoute } from './routes/validate.ts';
import { PropertyEntry } from './schemas.ts';

/** Property resolution, listing, validation, saves, history and rollback. */
export function registerProperties(app: FastifyInstance, ctx: AppContext): void {
  app.addSchema(PropertyEntry);
  resolveRoute(app, ctx);
  resolveBulkRoute(app, ctx);
  registryRoute(app, ctx);
  validateRoute(app, ctx);
  saveRoute(app, ctx);
  propertyHistoryRoute(app, ctx);
  rollbackRoute(app, ctx);
}

export const propertiesPlugin = fp<{ ctx: AppContext }>(async (app, { ctx }) => registerProperties(app, ctx), { name: 'properties' });
export { applyHeldProperty } from './routes/save.ts';
export { markEntryStale, propertySnapshot, saveAuthoritative } from './service.ts';
