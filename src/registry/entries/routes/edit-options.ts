import type { FastifySchema } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { saveLimits } from '../../limits.ts';
import { organizationWrite } from '../../organization-write.ts';
import type { RouteDocs } from '../kind.ts';

/**
 * What the routes that edit an entry (save, rollback) share: an organization's credential, the
 * save limits, and the entity's tag; `schema` adds the route's own body and responses.
 */
export function editRouteOptions(
  ctx: AppContext,
  tag: string,
  docs: RouteDocs,
  schema: Pick<FastifySchema, 'body' | 'response'>,
) {
  return organizationWrite(saveLimits(ctx.config), { ...docs, tags: [tag], ...schema });
}
