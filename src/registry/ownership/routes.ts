import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { AppContext } from '../../context.ts';
import { normalizeDomain } from '../../protocol/domain.ts';
import { errorResponses } from '../../protocol/wire/error.ts';
import { ownershipLimits } from '../limits.ts';
import { organizationWrite } from '../organization-write.ts';
import { dnsName, httpUrl } from './checks.ts';
import { Challenge, ChallengeRequest, Verified, VerifyParams, VerifyRequest } from './schemas.ts';
import { issueChallenge, verifyChallenge } from './service.ts';

const TAG = 'Ownership';

/** Proof of domain control: ask for a challenge, publish its nonce, ask for verification. */
export function registerOwnership(app: FastifyInstance, ctx: AppContext): void {
  app.post<{ Body: Static<typeof ChallengeRequest> }>(
    '/api/ownership/challenges',
    {
      ...organizationWrite(ownershipLimits(ctx.config), {
        summary: 'Ask for an ownership challenge for a domain',
        description:
          'Returns a single-use nonce for your organization and this domain, valid 15 minutes, with both ways to show it: a DNS TXT record at `_ap-owner.{domain}` or a file at `https://{domain}/.well-known/ap-ownership.txt`. Then call verify with the method you chose.',
        tags: [TAG],
        body: ChallengeRequest,
        response: { 201: Challenge, ...errorResponses(400, 401, 403, 415, 429) },
      }),
    },
    async (request, reply) => {
      const domain = normalizeDomain(request.body.domain, { in: 'body' });
      const c = await issueChallenge(ctx, request.principal!, domain);
      return reply.code(201).send({
        challenge_id: c.id,
        domain,
        nonce: c.nonce,
        expires_at: c.expires_at.toISOString(),
        dns: { name: dnsName(domain), type: 'TXT', value: c.nonce },
        http: { url: httpUrl(domain), body: c.nonce },
      });
    },
  );

  app.post<{ Params: Static<typeof VerifyParams>; Body: Static<typeof VerifyRequest> }>(
    '/api/ownership/challenges/:id/verify',
    {
      ...organizationWrite(ownershipLimits(ctx.config), {
        summary: 'Verify an ownership challenge',
        description:
          'Checks the domain by the given method. Success consumes the nonce and records the proof for your organization; failure invalidates it (ask for a new one). An expired challenge answers 410, a used one 409.',
        tags: [TAG],
        params: VerifyParams,
        body: VerifyRequest,
        response: { 200: Verified, ...errorResponses(400, 401, 403, 404, 409, 410, 415, 422, 429) },
      }),
    },
    async (request) => {
      const { challenge, proved_at } = await verifyChallenge(
        ctx,
        request.principal!,
        request.params.id,
        request.body.method,
      );
      return {
        verified: true as const,
        domain: challenge.domain,
        method: request.body.method,
        proved_at: proved_at.toISOString(),
        valid_until: new Date(proved_at.getTime() + ctx.config.ownershipProofDays * 86_400_000).toISOString(),
      };
    },
  );
}
