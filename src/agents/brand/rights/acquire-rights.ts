import { randomUUID } from 'node:crypto';
import { AgentError } from '../../../protocol/errors.ts';
import { httpUrl } from '../../../protocol/http-url.ts';
import {
  idInput,
  ownerOf,
  publishedSchemas,
  type AgentTask,
  type PrepareContext,
  type TaskArguments,
} from '../../runtime/index.ts';
import type { Approval, PurchaseRequest, SellerGovernance } from '../../seller-governance/index.ts';
import { clearance, windowEnd, type Campaign } from './clearance.ts';
import { acquiredAnswer, newRightsKey } from './grant-answer.ts';
import type { Offering, RightsPricingOption } from './roster.ts';
import * as sql from './sql.ts';

type Json = Record<string, unknown>;

interface AcquireArgs extends TaskArguments {
  rights_id: string;
  pricing_option_id: string;
  buyer: Json;
  campaign: Campaign;
  revocation_webhook: { url: string; [field: string]: unknown };
  push_notification_config?: { url: string; [field: string]: unknown };
}

/**
 * `acquire_rights` (brand/acquire-rights-request.json), a binding request in one transaction:
 * the campaign checked against the offering's terms (a refusal says what would pass), then,
 * under the offering's lock, its exclusivity (one grant holds an exclusive offering, acquired or
 * waiting for approval, so of simultaneous requests exactly one gets it); then the grant, acquired
 * at once with its terms, generation credential and rights constraint, or waiting for the holder's
 * approval where the holder reviews each campaign.
 */
export function acquireRightsTask(
  roster: readonly Offering[],
  agentUrl: () => string,
  governance?: SellerGovernance,
): AgentTask<AcquireArgs> {
  return {
    name: 'acquire_rights',
    description:
      'License an offering from get_rights: rights_id, pricing_option_id, buyer, campaign (description, uses, countries, dates), revocation_webhook. Answers acquired (terms, generation credentials, rights constraint), pending_approval (the holder reviews it), or rejected (with suggestions when adjustable).',
    input: {
      type: 'object',
      properties: {
        rights_id: idInput,
        pricing_option_id: idInput,
        buyer: { type: 'object', description: 'core/brand-ref.json: {domain}.' },
        campaign: {
          type: 'object',
          properties: {
            uses: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'string', maxLength: 40 } },
            countries: { type: 'array', maxItems: 250, items: { type: 'string', pattern: '^[A-Z]{2}$' } },
          },
          required: ['description', 'uses'],
        },
        revocation_webhook: { type: 'object', description: 'core/push-notification-config.json: {url, token?}.' },
        push_notification_config: { type: 'object' },
      },
      required: ['rights_id', 'pricing_option_id', 'buyer', 'campaign', 'revocation_webhook'],
      additionalProperties: true,
    },
    ...publishedSchemas('brand/acquire-rights'),
    mutates: true,
    // On an account under campaign governance, a licence the terms allow is approved by the buyer's
    // governance agent first (phase purchase, before the transaction opens), as a buy is.
    ...(governance
      ? {
          prepare: async (args: AcquireArgs, pctx: PrepareContext) => {
            const { offering, option } = chosen(roster, args);
            const today = pctx.clock.now().toISOString().slice(0, 10);
            if (clearance(offering, option, args.campaign, today)) return undefined;
            return governance.checkPurchase(args as PurchaseRequest, pctx, async () =>
              plannedDelivery(offering, option, args, today),
            );
          },
        }
      : {}),
    async handler(args, ctx) {
      const { offering, option } = chosen(roster, args);
      const now = ctx.clock.now();
      const today = now.toISOString().slice(0, 10);
      const { campaign } = args;
      if (campaign.end_date !== undefined && campaign.end_date < today)
        throw new AgentError('INVALID_REQUEST', `campaign.end_date ${campaign.end_date} has passed.`, {
          field: 'campaign.end_date',
        });
      if (
        campaign.start_date !== undefined &&
        campaign.end_date !== undefined &&
        campaign.start_date > campaign.end_date
      )
        throw new AgentError('INVALID_REQUEST', 'campaign.start_date is after campaign.end_date.', {
          field: 'campaign.start_date',
        });
      for (const [field, hook] of [
        ['revocation_webhook', args.revocation_webhook],
        ['push_notification_config', args.push_notification_config],
      ] as const)
        if (hook && !httpUrl(hook.url))
          throw new AgentError('INVALID_REQUEST', `${field}.url must be an absolute http(s) URL.`, {
            field: `${field}.url`,
          });

      const grantId = `rg_${randomUUID()}`;
      const refusal = clearance(offering, option, campaign, today);
      if (refusal) return { rights_id: grantId, status: 'rejected', brand_id: offering.brand_id, ...refusal };

      // Only an exclusive offering's acquisitions take turns; the others need not wait for each other.
      if (offering.exclusive) {
        await sql.lockOffering(ctx.db, offering.rights_id);
        if ((await sql.heldOfferings(ctx.db, [offering.rights_id], today)).size > 0)
          return {
            rights_id: grantId,
            status: 'rejected',
            brand_id: offering.brand_id,
            reason: `${offering.name} is licensed exclusively to another buyer.`,
          };
      }

      const start = campaign.start_date ?? today;
      const end = campaign.end_date ?? windowEnd(offering, today);
      const terms = {
        pricing_option_id: option.pricing_option_id,
        amount: option.price,
        currency: option.currency,
        ...(option.period ? { period: option.period } : {}),
        uses: campaign.uses,
        ...(option.impression_cap ? { impression_cap: option.impression_cap } : {}),
        ...(option.overage_cpm !== undefined ? { overage_cpm: option.overage_cpm } : {}),
        start_date: start,
        ...(end ? { end_date: end } : {}),
        ...(offering.exclusive
          ? { exclusivity: { scope: offering.right_type, countries: campaign.countries ?? offering.countries ?? [] } }
          : {}),
      };
      // A key only once granted: a reviewed grant gets its own with the holder's approval.
      const credential = offering.review ? undefined : newRightsKey();
      const approval = ctx.prepared as Approval | undefined;
      if (approval) await governance!.recordApproval(ctx.db, ownerOf(ctx.principal), grantId, approval);
      await sql.insertGrant(ctx.db, {
        grant_id: grantId,
        offering_id: offering.rights_id,
        owner: ownerOf(ctx.principal),
        brand_id: offering.brand_id,
        status: offering.review ? 'pending_approval' : 'acquired',
        exclusive: offering.exclusive,
        terms,
        campaign,
        buyer: args.buyer,
        revocation_webhook: args.revocation_webhook,
        push_notification_config: args.push_notification_config ?? null,
        keyHash: credential?.keyHash ?? null,
        created_at: now,
      });
      if (!credential)
        return {
          rights_id: grantId,
          status: 'pending_approval',
          brand_id: offering.brand_id,
          detail: `The holder of ${offering.name} reviews each campaign before granting it; the decision is sent to push_notification_config.`,
          estimated_response_time: `${offering.review!.minutes}m`,
        };
      return acquiredAnswer(offering, { grant_id: grantId, terms, campaign }, credential.key, agentUrl());
    },
  };
}

/** The offering and pricing option a request names, or the error naming the field that is wrong. */
function chosen(roster: readonly Offering[], args: AcquireArgs): { offering: Offering; option: RightsPricingOption } {
  const offering = roster.find((o) => o.rights_id === args.rights_id);
  if (!offering)
    throw new AgentError('REFERENCE_NOT_FOUND', `No rights offering ${args.rights_id}.`, {
      field: 'rights_id',
      suggestion: 'Find offerings with get_rights.',
    });
  const option = offering.pricing_options.find((o) => o.pricing_option_id === args.pricing_option_id);
  if (!option)
    throw new AgentError('INVALID_REQUEST', `${offering.name} has no pricing option ${args.pricing_option_id}.`, {
      field: 'pricing_option_id',
      suggestion: `Choose one of ${offering.pricing_options.map((o) => o.pricing_option_id).join(', ')}.`,
    });
  return { offering, option };
}

/**
 * What the licence commits, for the governance agent's execution check (the documentation's
 * projection): a flat price as it stands, a CPM price over the campaign's estimated impressions,
 * which a governed CPM request must therefore give.
 */
function plannedDelivery(offering: Offering, option: RightsPricingOption, args: AcquireArgs, today: string) {
  const impressions = args.campaign.estimated_impressions;
  if (option.model === 'cpm' && !impressions)
    throw new AgentError(
      'INVALID_REQUEST',
      'A CPM-priced licence under a governance plan needs campaign.estimated_impressions to project its cost.',
      { field: 'campaign.estimated_impressions' },
    );
  const total = option.model === 'cpm' ? Math.round((option.price / 1000) * impressions! * 100) / 100 : option.price;
  const end = args.campaign.end_date ?? windowEnd(offering, today);
  return {
    total_budget: total,
    currency: option.currency,
    start_time: `${args.campaign.start_date ?? today}T00:00:00Z`,
    ...(end ? { end_time: `${end}T23:59:59Z` } : {}),
    ...(args.campaign.countries ? { geo: { countries: args.campaign.countries } } : {}),
  };
}
