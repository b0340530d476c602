import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { SnapshotSection } from '../feed/index.ts';
import { toPolicy } from './rows.ts';
import { historyRoute } from './routes/history.ts';
import { registryRoute } from './routes/registry.ts';
import { resolveBulkRoute } from './routes/resolve-bulk.ts';
import { resolveRoute } from './routes/resolve.ts';
import { saveRoute } from './routes/save.ts';
import { pageById } from './sql.ts';

export interface PoliciesOptions {
  ctx: AppContext;
}

/**
 * The policy registry (governance/policy-entry.json): the listing, resolve (a version pinned or
 * not), bulk resolve, history and community saves, each save a revision with its feed event.
 */
export const policiesPlugin: FastifyPluginAsync<PoliciesOptions> = async (app, { ctx }) => {
  registryRoute(app, ctx.db);
  resolveRoute(app, ctx.db);
  resolveBulkRoute(app, ctx);
  historyRoute(app, ctx.db);
  saveRoute(app, ctx);
};

/** The snapshot section of policies: each as resolve serves it, keyed like its feed events (by policy_id). */
export const policySnapshot: SnapshotSection = {
  entityType: 'policy',
  keys: 'text',
  async page(db, after, limit) {
    const rows = await pageById(db, after, limit);
    return rows.map((row) => ({
      key: row.policy_id,
      entity_type: 'policy',
      entity_id: row.policy_id,
      data: toPolicy(row),
    }));
  },
};

export { policySchemas } from './schemas.ts';
export { entryOf, publishRegistryPolicy, registryPolicyEntries } from './service.ts';
export type { PolicyRow, StoredEntry } from './sql.ts';
