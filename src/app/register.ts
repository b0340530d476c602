import type { FastifyInstance, FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

/**
 * Registers a capability's plugin, encapsulated, with the services it is handed. Fastify's own
 * `register` takes the options as optional; here they are required, so a plugin cannot be
 * registered without what it uses, and what it uses must have been built before.
 */
export async function register<Options extends FastifyPluginOptions>(
  app: FastifyInstance,
  plugin: FastifyPluginAsync<Options>,
  options: Options,
): Promise<void> {
  await app.register(plugin, options);
}
