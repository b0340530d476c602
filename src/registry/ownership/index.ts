import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../../context.ts';
import { registerOwnership } from './routes.ts';

export interface OwnershipOptions {
  ctx: AppContext;
}

/**
 * Proof of domain control: the challenge and verify endpoints. Saves ask `requireProof` (or the
 * `proofCheck` bound to the app's clock and settings) before writing an entry for a domain.
 */
export const ownershipPlugin: FastifyPluginAsync<OwnershipOptions> = async (app, { ctx }) =>
  registerOwnership(app, ctx);

export { proofCheck, provesAny, requireProof, requireProofOfAny, type ProofCheck } from './service.ts';
export { ownershipSettings, type OwnershipSettings } from './settings.ts';
