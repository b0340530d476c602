import type { FastifyInstance, FastifySchema, HTTPMethods, RouteOptions } from 'fastify';
import type { RouteAuth } from './route-config.ts';

/** One registered route, as the app itself knows it. */
export interface RouteEntry {
  method: HTTPMethods;
  url: string;
  auth: RouteAuth;
  schema: (FastifySchema & { hide?: boolean; response?: Record<string, unknown> }) | undefined;
}

/** Records each route as it is registered, in the table it returns (in order). Call before any route exists. */
export function recordRoutes(app: FastifyInstance): RouteEntry[] {
  const table: RouteEntry[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      table.push({
        method,
        url: route.url,
        auth: route.config?.auth ?? 'none',
        schema: route.schema as RouteEntry['schema'],
      });
    }
  });
  return table;
}
