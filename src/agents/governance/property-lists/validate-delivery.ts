import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { authorizationStatus, type AuthorizationIndex } from '../../../registry/lookups/index.ts';
import {
  accountRefInput,
  idInput,
  ownerOf,
  publishedSchemas,
  type AgentTask,
  type TaskArguments,
} from '../../runtime/index.ts';
import { resolveList, type Identifier } from './resolve-list.ts';
import { ownList } from '../lists/index.ts';
import { propertyLists } from './kind.ts';

interface DeliveryRecord {
  identifier: Identifier;
  impressions: number;
  record_id?: string;
  sales_agent_url?: string;
}

interface ValidateArgs extends TaskArguments {
  list_id: string;
  records: DeliveryRecord[];
  include_compliant?: boolean;
}

type Status = 'compliant' | 'non_compliant' | 'not_covered' | 'unidentified';

/**
 * `validate_property_delivery` (property/validate-property-delivery-request.json): where delivered
 * impressions ran, against a list resolved now. A record on a member of the list is compliant; on
 * a registry property outside it, non-compliant; on an identifier the registry does not know,
 * unidentified. With its `sales_agent_url`, each record also says whether that agent is
 * authorized for the property, from the same in-memory index the registry's authorization check
 * answers from. Up to 10,000 records; the list is resolved once.
 */
export function validatePropertyDeliveryTask(authorization: () => AuthorizationIndex): AgentTask<ValidateArgs> {
  return {
    name: 'validate_property_delivery',
    description:
      'Check delivery records ({identifier, impressions, sales_agent_url?}, up to 10,000) against one of your property lists: each record compliant, non_compliant or unidentified, with its sales agent’s authorization from the registry, and a summary.',
    input: {
      type: 'object',
      properties: {
        list_id: idInput,
        records: { type: 'array', minItems: 1, maxItems: 10_000, items: { type: 'object' } },
        include_compliant: { type: 'boolean' },
        account: accountRefInput,
      },
      required: ['list_id', 'records'],
      additionalProperties: true,
    },
    ...publishedSchemas('property/validate-property-delivery'),
    mutates: false,
    async handler(args, ctx) {
      const row = await ownList(ctx.db, propertyLists, ownerOf(ctx.principal), args.list_id);
      const index = authorization();
      const members = new Set(resolveList(index, row.definition));
      const now = ctx.clock.now().toISOString();
      const counts = { compliant: [0, 0], non_compliant: [0, 0], not_covered: [0, 0], unidentified: [0, 0] };
      const authorizations = { authorized: [0, 0], unauthorized: [0, 0], unknown: [0, 0] };
      const results = [];
      for (const record of args.records) {
        const known = index.propertiesByIdentifier(record.identifier.type, record.identifier.value);
        const status: Status =
          known.length === 0 ? 'unidentified' : known.some((p) => members.has(p)) ? 'compliant' : 'non_compliant';
        counts[status][0]!++;
        counts[status][1]! += record.impressions;
        const agent = record.sales_agent_url === undefined ? undefined : canonicalAgentUrl(record.sales_agent_url);
        const verdict =
          agent === undefined
            ? undefined
            : authorizationStatus(index, { agent, property: { identifier: record.identifier } });
        if (verdict) {
          authorizations[verdict.status][0]!++;
          authorizations[verdict.status][1]! += record.impressions;
        }
        if (status === 'compliant' && args.include_compliant !== true) continue;
        results.push({
          identifier: record.identifier,
          ...(record.record_id === undefined ? {} : { record_id: record.record_id }),
          status,
          impressions: record.impressions,
          ...(verdict
            ? {
                authorization: {
                  status: verdict.status,
                  ...(known[0] ? { publisher_domain: known[0].publisher } : {}),
                  sales_agent_url: record.sales_agent_url!,
                  ...(verdict.code
                    ? { violation: { code: verdict.code, message: violationMessage(verdict.code) } }
                    : {}),
                },
              }
            : {}),
        });
      }
      const checked = sum(Object.values(authorizations), 0);
      return {
        compliant: counts.non_compliant[0] === 0 && counts.unidentified[0] === 0,
        list_id: row.list_id,
        summary: {
          total_records: args.records.length,
          total_impressions: sum(Object.values(counts), 1),
          ...tally(counts),
        },
        ...(checked > 0
          ? {
              authorization_summary: {
                records_checked: checked,
                impressions_checked: sum(Object.values(authorizations), 1),
                ...tally(authorizations),
              },
            }
          : {}),
        results,
        validated_at: now,
        list_resolved_at: now,
      };
    },
  };
}

/** `<kind>_records` and `<kind>_impressions` for each kind counted, as the summaries name them. */
function tally(counts: Record<string, number[]>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(counts).flatMap(([kind, [records, impressions]]) => [
      [`${kind}_records`, records!],
      [`${kind}_impressions`, impressions!],
    ]),
  );
}

function sum(counts: number[][], at: 0 | 1): number {
  return counts.reduce((total, count) => total + count[at]!, 0);
}

function violationMessage(code: string): string {
  return `The registry's authorization check answered ${code} for this agent and property.`;
}
