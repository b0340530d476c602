import type { FastifyInstance } from 'fastify';
import type { Clock } from '../../../clock.ts';
import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { ApError } from '../../../protocol/errors.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import type { AuthorizationIndex } from '../authorization-index.ts';
import { checkAuthorization, checkIdentifiers, checkProperty, type CheckRequest, type Verdict } from '../check.ts';
import type { IndexSource } from '../index-source.ts';
import type { Identifier, IndexedProperty } from '../index-records.ts';
import { authorizationResult, propertySummary, publisherStatus } from '../render.ts';
import { maxSelectors, ProductAuthorization, ProductAuthorizationBody } from '../schemas/index.ts';
import { ofType, readSelectors, selectedProperties, type Selector } from '../selectors.ts';
import { liveIndex } from './live-index.ts';

/** `POST /api/registry/validate/product-authorization`: may this agent sell what a product selects? */
export function productAuthorizationRoute(app: FastifyInstance, follower: IndexSource, clock: Clock): void {
  app.post<{ Body: ProductAuthorizationBody }>(
    '/api/registry/validate/product-authorization',
    {
      schema: {
        summary: 'Validate an agent’s authorization for a product',
        description: `An agent and a product's \`publisher_properties\` (up to ${maxSelectors} selectors, with or without \`selection_type\`: the protocol's registry client sends \`{publisher_domain, property_types?, property_ids?, tags?}\`): per selector, each selected property with its authorization result (the same two-sided check as the real-time endpoint), and counts. \`authorized\` is true only when every selected property is authorized.`,
        tags: ['Lookups & Authorization'],
        body: ProductAuthorizationBody,
        response: { 200: ProductAuthorization, ...errorResponses(400, 413, 415, 503) },
      },
    },
    async (request) => {
      const { agent_url: agentUrl, delegation_type: claimed } = request.body;
      const agent = canonicalAgentUrl(agentUrl);
      if (agent === undefined)
        throw new ApError('validation_failed', 'Invalid body.agent_url: must be an absolute URL.', {
          details: [{ in: 'body', field: 'agent_url', message: 'must be an absolute URL' }],
        });
      const selectors = readSelectors(request.body.publisher_properties);
      const index = liveIndex(follower);
      const results = selectors.map((s, i) => {
        const targets = targetsOf(index, s);
        const properties = targets.map(({ identifiers, judge }) => {
          const verdict = judge({ agent, delegation_type: claimed });
          return {
            property: verdict.property ? propertySummary(verdict.property) : null,
            identifiers,
            result: authorizationResult(verdict, agentUrl),
          };
        });
        const count = (status: string) => properties.filter((p) => p.result.status === status).length;
        return {
          index: i,
          selection_type: s.selection_type,
          publisher_domain: s.selection_type === 'inline' ? null : s.publisher_domain,
          counts: { authorized: count('authorized'), unauthorized: count('unauthorized'), unknown: count('unknown') },
          ...(properties.length === 0 ? { violation: emptySelection(index, s) } : {}),
          properties,
        };
      });
      const authorized = results.every((r) => r.properties.length > 0 && r.counts.authorized === r.properties.length);
      return {
        agent_url: agentUrl,
        agent_url_canonical: agent,
        authorized,
        checked_at: clock.now().toISOString(),
        selectors: results,
      };
    },
  );
}

interface Target {
  identifiers: readonly Identifier[];
  /** The two-sided check for it; a target not in the catalog is asked about so the answer says why. */
  judge(request: Omit<CheckRequest, 'property'>): Verdict;
}

/**
 * What a selector selects: catalog properties; every id a by_id selector names, found or not (a
 * product naming a property its publisher does not declare is not authorized for it); for inline
 * ones the identifiers given, judged by the catalog properties they name.
 */
function targetsOf(index: AuthorizationIndex, s: Selector): Target[] {
  const found = (property: IndexedProperty): Target => ({
    identifiers: property.identifiers,
    judge: (request) => checkProperty(index, request, property),
  });
  if (s.selection_type === 'by_id') {
    return [...new Set(s.property_ids)].flatMap((id): Target[] => {
      const property = index.propertyById(s.publisher_domain, id);
      if (property) return ofType(s, property) ? [found(property)] : [];
      return [
        {
          identifiers: [],
          judge: (request) =>
            checkAuthorization(index, {
              ...request,
              property: { publisher_domain: s.publisher_domain, property_id: id },
            }),
        },
      ];
    });
  }
  if (s.selection_type !== 'inline') return selectedProperties(index, s).map(found);
  return s.properties.map((p) => ({
    identifiers: p.identifiers,
    judge: (request) => checkIdentifiers(index, request, p.identifiers),
  }));
}

function emptySelection(index: AuthorizationIndex, s: Selector): { code: string; message: string } {
  if (s.selection_type === 'inline')
    return { code: 'property_not_found', message: 'The inline selector lists no property.' };
  if (publisherStatus(index, s.publisher_domain) === 'unknown')
    return { code: 'publisher_file_unknown', message: `The registry has no adagents.json for ${s.publisher_domain}.` };
  return {
    code: 'property_not_found',
    message: `The adagents.json of ${s.publisher_domain} declares no property this selector selects.`,
  };
}
