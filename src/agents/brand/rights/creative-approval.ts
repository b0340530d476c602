import { strings } from '../../../protocol/json-values.ts';
import { idInput, ownerOf, publishedSchemas, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import { stemOf, stemsOf } from '../../text-search/index.ts';
import { ownGrant } from './own-grant.ts';
import type { Offering } from './roster.ts';

interface ApprovalArgs extends TaskArguments {
  rights_id: string;
  creative_url: string;
  creative_id?: string;
  description?: string;
  metadata?: { countries?: unknown; uses?: unknown; [field: string]: unknown };
}

/**
 * `creative_approval` (brand/creative-approval-request.json): a creative made under one of the
 * caller's grants, checked against the grant as it stands and its terms — refused when the grant
 * is not acquired (revoked, cancelled, waiting), paused or past its end; when the creative's
 * declared uses or countries (its metadata) go beyond the terms; when its description names what
 * the holder will not be associated with. Approved otherwise, with the holder's conditions (its
 * disclosure, its content restrictions).
 */
export function creativeApprovalTask(roster: readonly Offering[]): AgentTask<ApprovalArgs> {
  return {
    name: 'creative_approval',
    description:
      'Submit a creative made under one of your rights grants for the holder’s approval: rights_id, creative_url, and what it uses (metadata.uses, metadata.countries, description). Answers approved (with conditions) or rejected (with suggestions when a revision would pass).',
    input: {
      type: 'object',
      properties: {
        rights_id: idInput,
        creative_url: { type: 'string', maxLength: 2048 },
        creative_id: idInput,
        description: { type: 'string', maxLength: 5000 },
        metadata: { type: 'object' },
      },
      required: ['rights_id', 'creative_url'],
      additionalProperties: true,
    },
    ...publishedSchemas('brand/creative-approval'),
    mutates: true,
    async handler(args, ctx) {
      const { grant, offering } = await ownGrant(ctx.db, roster, ownerOf(ctx.principal), args.rights_id);
      const echo = {
        rights_id: grant.grant_id,
        ...(args.creative_id !== undefined ? { creative_id: args.creative_id } : {}),
        creative_url: args.creative_url,
      };
      const reject = (reason: string, suggestions?: string[]) => ({
        status: 'rejected',
        ...echo,
        reason,
        ...(suggestions ? { suggestions } : {}),
      });
      const today = ctx.clock.now().toISOString().slice(0, 10);
      const terms = grant.terms;
      if (grant.status !== 'acquired') return reject(`The grant is ${grant.status.replace('_', ' ')}.`);
      if (grant.paused) return reject('The grant is paused.', ['Resume it with update_rights (paused: false).']);
      const end = terms['end_date'] as string | undefined;
      if (end !== undefined && today > end) return reject(`The grant ended on ${end}.`);
      const licensed = strings(terms['uses']);
      const beyondUses = strings(args.metadata?.uses).filter((u) => !licensed.includes(u));
      if (beyondUses.length > 0)
        return reject(`The grant does not license ${beyondUses.join(', ')}.`, [`Use only ${licensed.join(', ')}.`]);
      const campaignCountries = strings((grant.campaign as { countries?: unknown }).countries);
      const allowed = campaignCountries.length > 0 ? campaignCountries : (offering.countries ?? []);
      const beyondCountries = strings(args.metadata?.countries).filter(
        (c) => (allowed.length > 0 && !allowed.includes(c)) || offering.excluded_countries?.includes(c),
      );
      if (beyondCountries.length > 0)
        return reject(`The grant does not cover ${beyondCountries.join(', ')}.`, [
          allowed.length > 0 ? `Serve it in ${allowed.join(', ')} only.` : 'Serve it where the grant allows.',
        ]);
      const said = stemsOf(args.description ?? '');
      const refused = offering.review?.refuses.find((word) => said.has(stemOf(word)));
      if (refused) return reject(`The holder does not approve creatives about ${refused}.`);
      return {
        status: 'approved',
        ...echo,
        approved_at: ctx.clock.now().toISOString(),
        conditions: [
          ...(offering.disclosure.required && offering.disclosure.text
            ? [`Disclose: ${offering.disclosure.text}`]
            : []),
          ...offering.content_restrictions,
        ],
      };
    },
  };
}
