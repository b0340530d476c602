import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { historyRoute } from '../../revisions/history-route.ts';
import { brandTables } from '../../revisions/sql.ts';

export function brandHistoryRoute(app: FastifyInstance, { db }: AppContext): void {
  historyRoute(app, db, { path: '/api/brands/history', tag: 'Brand Resolution', tables: brandTables, noun: 'brand' });
}
