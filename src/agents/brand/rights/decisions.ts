import { enqueueWebhookEvent, type TenantPass } from '../../runtime/index.ts';
import { stemOf, stemsOf } from '../../text-search/index.ts';
import type { Campaign } from './clearance.ts';
import { acquiredAnswer, newRightsKey } from './grant-answer.ts';
import type { Offering } from './roster.ts';
import * as sql from './sql.ts';

/** Grants decided per page of a pass. */
const pageSize = 100;

/**
 * The holders' review of pending acquisitions: once an offering's review time has passed, the
 * holder refuses a campaign whose description names something it will not be associated with and
 * grants the others (a fresh generation credential). The decision is recorded only if the grant is
 * still pending, and in the same transaction its webhook (core/mcp-webhook-payload.json, the
 * acquire_rights answer as `result`) is queued to the buyer's push_notification_config: one
 * decision, one notice, whichever instance decides.
 */
export function rightsDecisionsPass(
  tenant: string,
  roster: readonly Offering[],
  agentUrl: () => string,
  intervalMs: number,
): TenantPass {
  const shortest = Math.min(...roster.flatMap((o) => (o.review ? [o.review.minutes] : [])));
  return {
    name: 'rights-decisions',
    intervalMs,
    async run({ db, clock, webhooksQueued }) {
      if (!Number.isFinite(shortest)) return;
      const now = clock.now();
      for (;;) {
        const due = (await sql.pendingSince(db, new Date(now.getTime() - shortest * 60_000), pageSize)).filter((g) => {
          const offering = roster.find((o) => o.rights_id === g.offering_id);
          return offering?.review && g.created_at.getTime() + offering.review.minutes * 60_000 <= now.getTime();
        });
        if (due.length === 0) return;
        let queued = false;
        for (const grant of due) {
          const offering = roster.find((o) => o.rights_id === grant.offering_id)!;
          const campaign = grant.campaign as Campaign;
          const said = stemsOf(campaign.description);
          const refused = offering.review!.refuses.find((word) => said.has(stemOf(word)));
          const credential = refused ? undefined : newRightsKey();
          const notified = await db.transaction(async (tx) => {
            const decided = await sql.decideGrant(
              tx,
              grant.grant_id,
              refused ? 'rejected' : 'acquired',
              credential?.keyHash ?? null,
              now,
            );
            if (!decided) return false;
            const result = refused
              ? {
                  rights_id: grant.grant_id,
                  status: 'rejected',
                  brand_id: offering.brand_id,
                  reason: `The holder of ${offering.name} does not license it for campaigns about ${refused}.`,
                }
              : acquiredAnswer(
                  offering,
                  { grant_id: grant.grant_id, terms: grant.terms, campaign },
                  credential!.key,
                  agentUrl(),
                );
            const url = grant.push_notification_config?.['url'];
            if (typeof url !== 'string') return false;
            await enqueueWebhookEvent(
              tx,
              {
                tenant,
                url,
                payload: {
                  task_id: grant.grant_id,
                  task_type: 'acquire_rights',
                  protocol: 'brand',
                  status: 'completed',
                  timestamp: now.toISOString(),
                  message: refused ? `The holder refused ${offering.name}.` : `The holder granted ${offering.name}.`,
                  result,
                },
              },
              now,
            );
            return true;
          });
          queued ||= notified;
        }
        if (queued) webhooksQueued();
        if (due.length < pageSize) return;
      }
    },
  };
}
