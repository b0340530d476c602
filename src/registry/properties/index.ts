import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { heldSaveApplier, registerEntryRoutes } from '../entries/index.ts';
import type { ReviewApplier } from '../homographs/index.ts';
import { propertyKind } from './kind.ts';
import { checkReportRoute } from './routes/check-report.ts';
import { checkRoute } from './routes/check.ts';
import { validateRoute } from './routes/validate.ts';
import { PropertyEntry, PropertyRegistryItem, PropertyResolution } from './schemas.ts';

export interface PropertiesOptions {
  ctx: AppContext;
}

/** Property resolution, listing, validation, list checks, saves, history and rollback. */
export const propertiesPlugin = fp<PropertiesOptions>(
  async (app, { ctx }) => {
    app.addSchema(PropertyEntry);
    app.addSchema(PropertyResolution);
    app.addSchema(PropertyRegistryItem);
    registerEntryRoutes(app, ctx, propertyKind);
    validateRoute(app, ctx);
    checkRoute(app, ctx);
    checkReportRoute(app, ctx);
  },
  { name: 'properties' },
);

/** Applies a held property save an admin approved, as its submitter, still subject to the proof rule. */
export function applyHeldProperty(ctx: AppContext): ReviewApplier {
  return heldSaveApplier(ctx, propertyKind);
}

export { markEntryStale, propertySnapshot, saveAuthoritative } from './service.ts';
export type { EditableFields, PropertyRow } from './sql.ts';
