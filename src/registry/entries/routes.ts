import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { EntityKind, EntryRow } from './kind.ts';
import { historyRoute } from './routes/history.ts';
import { registryRoute } from './routes/registry.ts';
import { resolveBulkRoute } from './routes/resolve-bulk.ts';
import { resolveRoute } from './routes/resolve.ts';
import { rollbackRoute } from './routes/rollback.ts';
import { saveRoute } from './routes/save.ts';

/** The routes every entity has: resolve, bulk resolve, the registry listing, save, history and rollback. */
export function registerEntryRoutes<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  ctx: AppContext,
  kind: EntityKind<Row, Fields, Body>,
): void {
  resolveRoute(app, ctx.db, kind);
  resolveBulkRoute(app, ctx, kind);
  registryRoute(app, ctx.db, kind);
  saveRoute(app, ctx, kind);
  historyRoute(app, ctx.db, kind);
  rollbackRoute(app, ctx, kind);
}
