import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { RateLimitRule } from '../../http/rate-limit/rules.ts';
import { bulkResolveLimit } from '../limits.ts';
import type { EntityKind, EntryRow, Resolver } from './kind.ts';
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
  const resolve: Resolver = async (domains) => {
    const rows = await kind.find(ctx.db, domains);
    return new Map([...rows].map(([domain, row]) => [domain, kind.wire.resolution(row)]));
  };
  registerResolveRoutes(app, kind, resolve, [bulkResolveLimit(ctx.config, kind.wire.listKey)]);
  registryRoute(app, ctx.db, kind);
  saveRoute(app, ctx, kind);
  historyRoute(app, ctx.db, kind);
  rollbackRoute(app, ctx, kind);
}

/**
 * Resolve and bulk resolve alone, answered by `resolve`: the registry's over its entries, a
 * mirror's over what the feed told it. The same schemas and words either way.
 */
export function registerResolveRoutes<Row extends EntryRow, Fields, Body>(
  app: FastifyInstance,
  kind: EntityKind<Row, Fields, Body>,
  resolve: Resolver,
  bulkRateLimit: RateLimitRule[] = [],
): void {
  resolveRoute(app, kind, resolve);
  resolveBulkRoute(app, kind, resolve, bulkRateLimit);
}
