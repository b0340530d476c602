import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/**
 * Public GET endpoints may be read from any web page. Routes that take a credential are not
 * offered cross-origin: the browser blocks the response, so a page cannot use a visitor's
 * credential against them.
 */
export async function registerCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => {
      const readOnly = request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS';
      const isPublic = (request.routeOptions.config?.auth ?? 'none') !== 'required';
      callback(
        null,
        readOnly && isPublic ? { origin: '*', methods: ['GET', 'HEAD'], maxAge: 86400 } : { origin: false },
      );
    },
  });
}
