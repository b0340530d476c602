import type { FastifyInstance } from 'fastify';
import { listKeys } from '../../auth/index.ts';
import type { Queryable } from '../../db/database.ts';
import { KEYS_PATH } from '../navigation.ts';
import { keysView } from '../views.ts';
import { hidden } from './hidden.ts';
import { organizationPage } from './organization-page.ts';

/** The keys of one of the user's organizations (`?org=slug`, else their first), and the create form. */
export function listKeysRoute(app: FastifyInstance, db: Queryable): void {
  app.get(KEYS_PATH, hidden, (request, reply) =>
    organizationPage(db, request, reply, { title: 'API keys', path: KEYS_PATH }, async (page) =>
      keysView({ ...page, keys: await listKeys(db, page.current.organization_id) }),
    ),
  );
}
