import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../../context.ts';
import { historyRoute } from '../../revisions/history-route.ts';
import { propertyTables } from '../../revisions/sql.ts';

export function propertyHistoryRoute(app: FastifyInstance, { db }: AppContext): void {
  historyRoute(app, db, { path: '/api/properties/history', tag: 'Property Resolution', tables: propertyTables, noun: 'property entry' });
}
