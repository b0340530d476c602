import { hash, randomBytes } from 'node:crypto';
import { addDays, type Campaign } from './clearance.ts';
import type { Offering } from './roster.ts';

type Json = Record<string, unknown>;

/** A new generation credential's key, and the hash kept of it. */
export function newRightsKey(): { key: string; keyHash: Buffer } {
  const key = `rk_${randomBytes(24).toString('base64url')}`;
  return { key, keyHash: hash('sha256', key, 'buffer') };
}

/**
 * The `acquired` arm of acquire-rights-response.json for a grant: its terms, the generation
 * credential scoped to the campaign's uses and expiring with the grant, the holder's restrictions
 * and disclosure, and the rights constraint a creative manifest embeds (valid through the end date).
 */
export function acquiredAnswer(
  offering: Offering,
  grant: { grant_id: string; terms: Json; campaign: Campaign },
  key: string,
  agentUrl: string,
): Json {
  const { terms, campaign } = grant;
  const end = terms['end_date'] as string | undefined;
  const validUntil = end ? `${addDays(end, 1)}T00:00:00Z` : undefined;
  const countries = campaign.countries ?? offering.countries;
  return {
    rights_id: grant.grant_id,
    status: 'acquired',
    brand_id: offering.brand_id,
    terms,
    generation_credentials: [
      {
        provider: offering.provider,
        rights_key: key,
        uses: campaign.uses,
        ...(validUntil ? { expires_at: validUntil } : {}),
      },
    ],
    ...(offering.content_restrictions.length > 0 ? { restrictions: offering.content_restrictions } : {}),
    disclosure: offering.disclosure,
    rights_constraint: {
      rights_id: grant.grant_id,
      rights_agent: { url: agentUrl, id: 'brand' },
      valid_from: `${terms['start_date'] as string}T00:00:00Z`,
      ...(validUntil ? { valid_until: validUntil } : {}),
      uses: campaign.uses,
      ...(countries ? { countries } : {}),
      ...(offering.excluded_countries ? { excluded_countries: offering.excluded_countries } : {}),
      ...(terms['impression_cap'] ? { impression_cap: terms['impression_cap'] } : {}),
      right_type: offering.right_type,
      approval_status: 'approved',
    },
  };
}
