import { randomBytes, randomUUID } from 'node:crypto';
import type { Principal } from '../../auth/index.ts';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import { checkDns, checkHttp } from './checks.ts';
import * as sql from './sql.ts';

/** Spec: a nonce MUST expire within 15 minutes of issue. */
export const NONCE_TTL_MS = 15 * 60 * 1000;

function organizationOf(principal: Principal): string {
  const org = principal.organization;
  if (!org) throw new ApError('forbidden', 'Ownership is proven by an organization; the credential belongs to none.');
  return org.organizationId;
}

export async function issueChallenge(ctx: AppContext, principal: Principal, domain: string): Promise<sql.ChallengeRow> {
  const now = ctx.clock.now();
  return sql.insertChallenge(ctx.db, {
    id: randomUUID(),
    organization_id: organizationOf(principal),
    domain,
    nonce: `ap-owner-${randomBytes(24).toString('base64url')}`,
    issued_at: now,
    expires_at: new Date(now.getTime() + NONCE_TTL_MS),
  });
}

/**
 * Verifies a challenge by one method. The challenge is claimed first (one statement), so of many
 * simultaneous verifications one runs the check; it then ends consumed (and the proof recorded)
 * or invalidated. A challenge of another organization is not found, as if it did not exist.
 */
export async function verifyChallenge(
  ctx: AppContext,
  principal: Principal,
  id: string,
  method: sql.ProofMethod,
): Promise<{ challenge: sql.ChallengeRow; proved_at: Date }> {
  const organizationId = organizationOf(principal);
  const claimed = await sql.claimChallenge(ctx.db, id, organizationId, method, ctx.clock.now());
  if (!claimed) throw await whyNotClaimable(ctx, id, organizationId);
  let failure: string | undefined;
  try {
    failure =
      method === 'dns'
        ? await checkDns(ctx.resolveTxt, claimed.domain, claimed.nonce)
        : await checkHttp(ctx.fetcher, claimed.domain, claimed.nonce);
  } catch (err) {
    failure = 'the check could not be completed';
    await sql.settleChallenge(ctx.db, id, 'invalidated', ctx.clock.now(), failure);
    throw err;
  }
  const now = ctx.clock.now();
  if (failure) {
    await sql.settleChallenge(ctx.db, id, 'invalidated', now, failure);
    throw new ApError(
      'ownership_not_proven',
      `${claimed.domain} did not show the nonce: ${failure}. This challenge is now invalid; ask for a new one.`,
    );
  }
  await ctx.db.transaction(async (tx) => {
    await sql.settleChallenge(tx, id, 'consumed', now, null);
    await sql.recordProof(tx, organizationId, claimed.domain, method, now);
  });
  return { challenge: claimed, proved_at: now };
}

async function whyNotClaimable(ctx: AppContext, id: string, organizationId: string): Promise<ApError> {
  const row = await sql.challengeById(ctx.db, id);
  if (!row || row.organization_id !== organizationId)
    return new ApError('not_found', `No challenge ${id} belongs to your organization.`);
  if (row.state === 'consumed')
    return new ApError('nonce_used', 'This challenge was already used to prove ownership; ask for a new one.');
  if (row.state === 'invalidated')
    return new ApError(
      'nonce_used',
      `This challenge failed verification and is invalid (${row.failure ?? 'failed'}); ask for a new one.`,
    );
  if (row.state === 'verifying')
    return new ApError('nonce_used', 'This challenge is being verified by another request.');
  return new ApError('nonce_expired', `This challenge expired at ${row.expires_at.toISOString()}; ask for a new one.`);
}

/** What saves call, inside their transaction, once they know the entry is not authoritative. */
export type ProofCheck = (tx: Queryable, principal: Principal, domain: string) => Promise<void>;

export function proofCheck(ctx: Pick<AppContext, 'clock' | 'config'>): ProofCheck {
  return (tx, principal, domain) => requireProof(tx, ctx, principal, domain);
}

/**
 * Saves of a domain need a proof by the caller's organization no older than the window.
 * Registry admins curate the registry and are exempt.
 */
export async function requireProof(
  tx: Queryable,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  principal: Principal,
  domain: string,
): Promise<void> {
  await requireProofOfAny(tx, ctx, principal, [domain], `save ${domain}`);
}

/**
 * Whether the caller's organization holds a proof of any of `domains` young enough (a registry
 * admin always does): who may see what only a brand's owner sees.
 */
export async function provesAny(
  tx: Queryable,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  principal: Principal,
  domains: readonly string[],
): Promise<boolean> {
  const org = principal.organization;
  if (org?.registryAdmin) return true;
  return org !== undefined && (await standing(tx, ctx, org.organizationId, domains)).proven;
}

/** Whether an organization's proof of any of `domains` is within the window, and its newest proof when none is. */
async function standing(
  tx: Queryable,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  organizationId: string,
  domains: readonly string[],
): Promise<{ proven: boolean; newest?: Date }> {
  const windowMs = ctx.config.ownershipProofDays * 86_400_000;
  let newest: Date | undefined;
  for (const domain of domains) {
    const proof = await sql.latestProof(tx, organizationId, domain);
    if (proof && ctx.clock.now().getTime() - proof.proved_at.getTime() <= windowMs) return { proven: true };
    if (proof && (!newest || proof.proved_at > newest)) newest = proof.proved_at;
  }
  return newest ? { proven: false, newest } : { proven: false };
}

/** As `requireProof`, where a proof of any of `domains` will do (a host, or a domain above it); `action` says what it is for. */
export async function requireProofOfAny(
  tx: Queryable,
  ctx: Pick<AppContext, 'clock' | 'config'>,
  principal: Principal,
  domains: readonly string[],
  action: string,
): Promise<void> {
  const org = principal.organization;
  if (org?.registryAdmin) return;
  if (!org) throw new ApError('forbidden', 'This acts for an organization; the credential belongs to none.');
  const { proven, newest } = await standing(tx, ctx, org.organizationId, domains);
  if (proven) return;
  const named = domains.length === 1 ? domains[0]! : `${domains[0]} (or ${domains.slice(1).join(', ')})`;
  const why = newest
    ? `its proof of ${newest.toISOString()} is older than ${ctx.config.ownershipProofDays} days`
    : `it has not proven control of ${named}`;
  throw new ApError(
    'ownership_required',
    `${org.slug} cannot ${action}: ${why}. Ask for a challenge with POST /api/ownership/challenges and verify it.`,
  );
}
