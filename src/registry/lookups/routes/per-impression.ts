import type { FastifyContextConfig } from 'fastify';

/** The route config of a lookup an ad server makes once per impression: its request lines log at debug (http/route-config.ts). */
export const perImpression: FastifyContextConfig = { requestLog: 'debug' };
