import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { baseUrl } from '../http/base-url.ts';
import { keyRoutes } from './keys/routes.ts';
import { currentKey, type KeySettings } from './keys/store.ts';
import { mountTenant, type Tenant } from './runtime/index.ts';

/** Signatures live at most 300 s plus 60 s of verifier skew; retired keys stay published that long. */
export const signatureLifetimeSeconds = 360;

/**
 * The agents this deployment serves: each tenant over MCP and A2A, the signing keys their webhooks
 * are signed with (made at first start), and the JWKS and brand.json receivers resolve them from.
 */
export function registerAgents(app: FastifyInstance, ctx: AppContext, tenants: readonly Tenant[]): void {
  if (tenants.length === 0) return;
  const { agents } = ctx.config;
  const keys: KeySettings = { alg: agents.signingAlg, secret: agents.signingKeySecret, clock: ctx.clock, publishWindowSeconds: signatureLifetimeSeconds };
  for (const tenant of tenants) mountTenant(app, ctx, tenant);
  keyRoutes(app, ctx.db, keys, tenants, () => baseUrl(app, ctx.config));
  app.addHook('onReady', async () => {
    await currentKey(ctx.db, keys);
    if (!agents.signingKeySecret) app.log.warn('AP_SIGNING_KEY_SECRET is not set: agent signing keys are stored unsealed (acceptable in development only)');
  });
}
