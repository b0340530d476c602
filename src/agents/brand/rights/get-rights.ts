import {
  pageRequestInput,
  paginate,
  publishedSchemas,
  textInput,
  type AgentTask,
  type PageRequest,
  type TaskArguments,
} from '../../runtime/index.ts';
import { stemsOf } from '../../text-search/index.ts';
import type { HeldOfferings } from './held-offerings.ts';
import type { Offering, RightUse } from './roster.ts';

interface RightsArgs extends TaskArguments {
  query: string;
  uses: RightUse[];
  countries?: string[];
  brand_id?: string;
  right_type?: Offering['right_type'];
  include_excluded?: boolean;
  pagination?: PageRequest;
}

// Words of one or two letters say nothing of what is asked ("a", "to").
const words = (text: string): Set<string> => new Set([...stemsOf(text)].filter((w) => w.length > 2));

/**
 * `get_rights` (brand/get-rights-request.json): the roster's offerings for the uses asked, in the
 * countries asked, of a brand or a type when named, best match to the query first (the share of
 * the query's words its name, description and brand carry). An offering the filters leave out is
 * listed in `excluded` with the reason and what would include it, when asked. Exclusivity is the
 * grants' as they stand (`held`).
 */
export function getRightsTask(roster: readonly Offering[], held: HeldOfferings): AgentTask<RightsArgs> {
  // What each offering says of itself, in words, read once.
  const carries = new Map(roster.map((o) => [o, words(`${o.name} ${o.description} ${o.brand_id}`)]));
  return {
    name: 'get_rights',
    description:
      'Search the roster of licensable rights (talent, characters, brand IP, music, stock media): query (what you want) and uses (likeness, voice, sync…), optionally countries, brand_id, right_type. Answers offerings with pricing options and exclusivity, best match first; include_excluded lists what the filters left out and why.',
    input: {
      type: 'object',
      properties: {
        query: textInput('prose', 'What rights you want, in words'),
        uses: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'string', maxLength: 40 } },
        countries: { type: 'array', maxItems: 250, items: { type: 'string', pattern: '^[A-Z]{2}$' } },
        brand_id: { type: 'string', maxLength: 253 },
        right_type: { type: 'string', maxLength: 40 },
        include_excluded: { type: 'boolean' },
        pagination: pageRequestInput,
      },
      required: ['query', 'uses'],
      additionalProperties: true,
    },
    ...publishedSchemas('brand/get-rights'),
    mutates: false,
    async handler(args, ctx) {
      const asked = words(args.query);
      const matches: Array<{ offering: Offering; score: number; reasons: string[] }> = [];
      const excluded: Array<{ brand_id: string; name: string; reason: string; suggestions?: string[] }> = [];
      for (const offering of roster) {
        if (args.brand_id !== undefined && offering.brand_id !== args.brand_id.toLowerCase()) continue;
        if (args.right_type !== undefined && offering.right_type !== args.right_type) continue;
        const uses = args.uses.filter((u) => offering.uses.includes(u));
        if (uses.length === 0) {
          excluded.push({
            brand_id: offering.brand_id,
            name: offering.name,
            reason: `Not licensed for ${args.uses.join(', ')}.`,
            suggestions: [`Ask for ${offering.uses.join(', ')}.`],
          });
          continue;
        }
        const unavailable = (args.countries ?? []).filter(
          (c) => offering.excluded_countries?.includes(c) || (offering.countries && !offering.countries.includes(c)),
        );
        if (unavailable.length > 0) {
          excluded.push({
            brand_id: offering.brand_id,
            name: offering.name,
            reason: `Not available in ${unavailable.join(', ')}.`,
            ...(offering.countries ? { suggestions: [`Available in ${offering.countries.join(', ')}.`] } : {}),
          });
          continue;
        }
        const carried = carries.get(offering)!;
        const hits = [...asked].filter((w) => carried.has(w));
        const score = asked.size === 0 ? 0 : hits.length / asked.size;
        matches.push({
          offering,
          score,
          reasons: [
            `Licensed for ${uses.join(', ')}`,
            ...(hits.length > 0 ? [`Matches ${hits.length} of ${asked.size} words of the query`] : []),
          ],
        });
      }
      matches.sort((a, b) => b.score - a.score || a.offering.rights_id.localeCompare(b.offering.rights_id));
      const { page, pagination } = paginate(matches, args.pagination);
      const taken = await held.on(ctx.db, ctx.clock.now().toISOString().slice(0, 10));
      return {
        rights: page.map(({ offering, score, reasons }) => ({
          rights_id: offering.rights_id,
          brand_id: offering.brand_id,
          name: offering.name,
          description: offering.description,
          right_type: offering.right_type,
          match_score: Math.round(score * 100) / 100,
          match_reasons: reasons,
          available_uses: offering.uses,
          ...(offering.countries ? { countries: offering.countries } : {}),
          ...(offering.excluded_countries ? { excluded_countries: offering.excluded_countries } : {}),
          // Another buyer's licence is named vaguely, as the schema asks: never its terms.
          exclusivity_status: taken.has(offering.rights_id)
            ? { available: false, existing_exclusives: ['An exclusive licence of these rights is in force.'] }
            : { available: offering.exclusive },
          pricing_options: offering.pricing_options,
          ...(offering.content_restrictions.length > 0 ? { content_restrictions: offering.content_restrictions } : {}),
        })),
        ...(args.include_excluded === true ? { excluded } : {}),
        pagination,
      };
    },
  };
}
