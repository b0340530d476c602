import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { heldSaveApplier, registerEntryRoutes, registerResolveRoutes, type Resolver } from '../entries/index.ts';
import type { ReviewApplier } from '../homographs/index.ts';
import { propertyKind } from './kind.ts';
import { checkReportRoute } from './routes/check-report.ts';
import { checkRoute } from './routes/check.ts';
import { validateRoute } from './routes/validate.ts';
import { PropertyEntry, PropertyRegistryItem, PropertyResolution } from './schemas.ts';

export interface PropertiesOptions {
  ctx: AppContext;
}

/** The properties' shared schemas, added app-wide: other capabilities' answers carry them too. */
export const propertySchemas = [PropertyEntry, PropertyResolution, PropertyRegistryItem];

/** Property resolution, listing, validation, list checks, saves, history and rollback. */
export const propertiesPlugin: FastifyPluginAsync<PropertiesOptions> = async (app, { ctx }) => {
  registerEntryRoutes(app, ctx, propertyKind);
  validateRoute(app, ctx);
  checkRoute(app, ctx);
  checkReportRoute(app, ctx);
};

/** Resolve and bulk resolve of property entries alone, answered by `resolve` (a mirror answers from what the feed told it). */
export const propertyResolvePlugin: FastifyPluginAsync<{ resolve: Resolver }> = async (app, { resolve }) => {
  registerResolveRoutes(app, propertyKind, resolve);
};

/** Applies a held property save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldProperty(ctx: AppContext): ReviewApplier {
  return heldSaveApplier(ctx, propertyKind);
}

export { propertyResolutions } from './events.ts';
export { markEntryStale, propertySnapshot, saveAuthoritative } from './service.ts';
export type { EditableFields, PropertyRow } from './sql.ts';
