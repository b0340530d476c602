import { decodeJwt } from 'jose';
import { AgentError } from '../../protocol/errors.ts';
import {
  GovernanceTokenError,
  GovernanceUnavailableError,
  verifyGovernanceToken,
  type GovernanceClaims,
  type IssuerKeys,
} from '../governance/index.ts';

export interface IntentCheck {
  /** The governance agents the buyer registered for the account: the token's issuer must be one. */
  registered: readonly string[];
  /** This seller's agent URL: the token must be addressed to it. */
  seller: string;
  planId: string;
  keys: IssuerKeys;
  now: Date;
}

/**
 * The seller verification checklist over the buyer's intent token (`governance_context` on the
 * envelope): issued by a governance agent registered for the account, signed by a governance key
 * it publishes, for this plan, in the intent phase, addressed to this seller and in date. A token
 * missing or failing any of these is PERMISSION_DENIED; an issuer whose keys cannot be read is
 * GOVERNANCE_UNAVAILABLE (the seller cannot verify, and halts).
 */
export async function verifyIntent(token: unknown, check: IntentCheck): Promise<GovernanceClaims> {
  if (typeof token !== 'string' || token === '')
    throw denied(
      'This account is under campaign governance: send the intent governance_context from check_governance.',
    );
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch {
    throw denied('governance_context is not a compact JWS.');
  }
  if (typeof issuer !== 'string' || !check.registered.includes(issuer))
    throw denied('governance_context was not issued by a governance agent registered for this account.');
  try {
    const kid = (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString('utf8')) as { kid?: unknown }).kid;
    const claims = await verifyGovernanceToken(token, {
      keys: await check.keys.keysOf(issuer, typeof kid === 'string' ? kid : undefined),
      issuer,
      planId: check.planId,
      phases: ['intent'],
      audience: check.seller,
      now: check.now,
    });
    if (claims.aud === undefined) throw new GovernanceTokenError('governance_context is addressed to no seller');
    return claims;
  } catch (err) {
    if (err instanceof GovernanceUnavailableError)
      throw new AgentError('GOVERNANCE_UNAVAILABLE', `${err.message}; nothing was committed.`, { retryAfter: 30 });
    if (err instanceof GovernanceTokenError || err instanceof SyntaxError) throw denied(`${err.message}.`);
    throw err;
  }
}

function denied(message: string): AgentError {
  return new AgentError('PERMISSION_DENIED', message, {
    field: 'governance_context',
    suggestion:
      'Call check_governance on your governance agent for this seller and plan, and send its governance_context.',
  });
}
