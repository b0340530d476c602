import type { FastifyInstance } from 'fastify';
import { ApError } from '../protocol/errors.ts';

/**
 * Idle connections are closed at shutdown; a request that arrives on a busy keep-alive connection
 * meanwhile is told to go elsewhere, in the catalogue's shape.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(
      closing
        ? new ApError('service_unavailable', 'The server is shutting down; retry on another instance.')
        : undefined,
    );
  });
}
