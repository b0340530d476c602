import { AgentError } from '../../../protocol/errors.ts';
import { idInput, ownerOf, publishedSchemas, type AgentTask, type TaskArguments } from '../../runtime/index.ts';
import { windowEnd, type Campaign } from './clearance.ts';
import { acquiredAnswer, newRightsKey } from './grant-answer.ts';
import { ownGrant } from './own-grant.ts';
import type { Offering } from './roster.ts';
import * as sql from './sql.ts';

interface UpdateArgs extends TaskArguments {
  rights_id: string;
  end_date?: string;
  impression_cap?: number;
  pricing_option_id?: string;
  paused?: boolean;
}

/**
 * `update_rights` (brand/update-rights-request.json) on an acquired grant of the caller's, under
 * its lock: extend the end date (never shorten it, never past the holder's window), set the
 * impression cap (narrowing it too), switch to another pricing option of the offering that covers
 * the grant's uses, pause or resume. A change of dates or terms re-issues the generation credential
 * and the rights constraint; it takes effect at once.
 */
export function updateRightsTask(roster: readonly Offering[], agentUrl: () => string): AgentTask<UpdateArgs> {
  return {
    name: 'update_rights',
    description:
      'Change one of your acquired rights grants: end_date (extend), impression_cap, pricing_option_id (another option of the offering), paused. Answers the new terms, with re-issued credentials and rights constraint when they changed.',
    input: {
      type: 'object',
      properties: {
        rights_id: idInput,
        end_date: { type: 'string', format: 'date' },
        impression_cap: { type: 'integer', minimum: 1 },
        pricing_option_id: idInput,
        paused: { type: 'boolean' },
      },
      required: ['rights_id'],
      additionalProperties: true,
    },
    ...publishedSchemas('brand/update-rights'),
    mutates: true,
    async handler(args, ctx) {
      const { grant, offering } = await ownGrant(ctx.db, roster, ownerOf(ctx.principal), args.rights_id, true);
      if (grant.status !== 'acquired')
        throw new AgentError(
          'INVALID_STATE',
          `The grant is ${grant.status.replace('_', ' ')}: only an acquired grant changes.`,
          {
            field: 'rights_id',
          },
        );
      const now = ctx.clock.now();
      const today = now.toISOString().slice(0, 10);
      const terms = { ...grant.terms };
      const currentEnd = terms['end_date'] as string | undefined;
      if (args.end_date !== undefined) {
        if (currentEnd !== undefined && args.end_date < currentEnd)
          throw new AgentError('INVALID_REQUEST', `end_date may only extend the grant (it ends ${currentEnd}).`, {
            field: 'end_date',
          });
        const lastDay = windowEnd(offering, today);
        if (lastDay !== undefined && args.end_date > lastDay)
          throw new AgentError('INVALID_REQUEST', `The holder can license ${offering.name} only until ${lastDay}.`, {
            field: 'end_date',
            suggestion: `Extend to ${lastDay} at most.`,
          });
        terms['end_date'] = args.end_date;
      }
      if (args.pricing_option_id !== undefined) {
        const option = offering.pricing_options.find((o) => o.pricing_option_id === args.pricing_option_id);
        const uses = terms['uses'] as string[];
        if (!option || !uses.every((u) => (option.uses as string[]).includes(u)))
          throw new AgentError(
            'INVALID_REQUEST',
            `${args.pricing_option_id} is not an option of ${offering.name} covering ${uses.join(', ')}.`,
            { field: 'pricing_option_id' },
          );
        Object.assign(terms, {
          pricing_option_id: option.pricing_option_id,
          amount: option.price,
          currency: option.currency,
        });
        for (const field of ['period', 'impression_cap', 'overage_cpm'] as const)
          if (option[field] === undefined) delete terms[field];
          else terms[field] = option[field];
      }
      if (args.impression_cap !== undefined) terms['impression_cap'] = args.impression_cap;
      const paused = args.paused ?? grant.paused;
      const reissued =
        args.end_date !== undefined || args.pricing_option_id !== undefined || args.impression_cap !== undefined;
      const credential = reissued ? newRightsKey() : undefined;
      await sql.updateGrant(
        ctx.db,
        grant.grant_id,
        { terms, paused, ...(credential ? { keyHash: credential.keyHash } : {}) },
        now,
      );
      const acquired =
        credential &&
        acquiredAnswer(
          offering,
          { grant_id: grant.grant_id, terms, campaign: grant.campaign as Campaign },
          credential.key,
          agentUrl(),
        );
      return {
        rights_id: grant.grant_id,
        terms,
        ...(acquired
          ? {
              generation_credentials: acquired['generation_credentials'],
              rights_constraint: acquired['rights_constraint'],
            }
          : {}),
        ...(args.paused !== undefined ? { paused } : {}),
        implementation_date: now.toISOString(),
      };
    },
  };
}
