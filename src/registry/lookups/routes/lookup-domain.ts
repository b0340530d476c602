import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { normalizeRequestDomain } from '../../../protocol/domain.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { Domain } from '../../../protocol/wire/common.ts';
import type { AuthorizationIndex } from '../authorization-index.ts';
import { covers } from '../coverage.ts';
import type { CatalogMember, CatalogMembers } from '../catalog-members.ts';
import type { IndexAnswers } from '../index-answers.ts';
import type { IndexSource } from '../index-source.ts';
import type { IndexedProperty } from '../index-records.ts';
import { grantSummary, publisherStatus } from '../render.ts';
import { DomainLookup } from '../schemas/index.ts';
import { answerFromMemory } from './answer-from-memory.ts';
import { perImpression } from './per-impression.ts';

/** `GET /api/registry/lookup/domain/{domain}`: who may sell a domain, and which of its properties. */
export function lookupDomainRoute(
  app: FastifyInstance,
  follower: IndexSource,
  answers: IndexAnswers<string>,
  members: CatalogMembers,
): void {
  app.get<{ Params: { domain: string } }>(
    '/api/registry/lookup/domain/:domain',
    {
      config: perImpression,
      schema: {
        summary: 'Agents authorized for a domain',
        description:
          'Every authorization reaching the domain’s properties: those its own adagents.json (or a manager’s file) declares for the publisher, and those whose identifiers name the domain. Each with `authorized_for`, `delegation_type` and the properties it covers. The same agents once each in `authorized_agents`, and the agents an operator’s brand.json claims for the domain’s properties in `sales_agents_claiming` (the fields the protocol’s registry client reads), each with whether a member organization enrolled it in the public catalog.',
        tags: ['Lookups & Authorization'],
        params: Type.Object({ domain: Domain }),
        response: { 200: DomainLookup, ...errorResponses(400, 503) },
      },
    },
    // Synchronous: the answer comes from memory, so no promise is made per lookup.
    // Answers name the members of the catalog as it stands: kept per generation of it too.
    (request, reply) =>
      answerFromMemory(reply, follower, answers, `${members.generation}\u0000${request.url}`, (index) => {
        const domain = normalizeRequestDomain(request.params.domain, { field: 'domain', in: 'params' });
        const publisher = index.publisher(domain);
        const own = index.propertiesOfPublisher(domain);
        const named = [
          ...index.propertiesByIdentifier('domain', domain),
          ...index.propertiesByIdentifier('subdomain', domain),
        ].filter((p) => p.publisher !== domain);
        const agents = grantsOver(index, [...own, ...named], publisher ? [domain] : []);
        return {
          domain,
          publisher: {
            status: publisherStatus(index, domain),
            ...(publisher?.stale && publisher.reason ? { reason: publisher.reason } : {}),
            property_count: own.length,
            collection_count: index.collectionsOfPublisher(domain).filter((c) => !c.removed).length,
          },
          agents,
          authorized_agents: authorizedAgents(agents, members),
          sales_agents_claiming: claimingAgents([...own, ...named], members),
        };
      }),
  );
}

/**
 * One entry per grant covering any of `properties`, with those it covers; a grant of a publisher
 * in `withoutProperties` that reaches none of them (a file declaring no properties yet) is still listed.
 */
export function grantsOver(
  index: AuthorizationIndex,
  properties: readonly IndexedProperty[],
  withoutProperties: readonly string[] = [],
) {
  const entries = new Map<string, { grant: ReturnType<typeof grantSummary>; properties: IndexedProperty[] }>();
  const publishers = new Set([...properties.map((p) => p.publisher), ...withoutProperties]);
  for (const publisher of publishers) {
    const ofPublisher = properties.filter((p) => p.publisher === publisher);
    for (const agent of index.agentsAt(publisher)) {
      for (const coverage of index.coveragesAt(publisher, agent)) {
        const covered = ofPublisher.filter((p) => covers(coverage, p));
        if (covered.length === 0 && ofPublisher.length > 0) continue;
        const entry = entries.get(coverage.grant.id) ?? { grant: grantSummary(coverage.grant), properties: [] };
        entry.properties.push(...covered);
        entries.set(coverage.grant.id, entry);
      }
    }
  }
  return [...entries.values()]
    .sort(
      (a, b) =>
        compare(a.grant.agent_url_canonical, b.grant.agent_url_canonical) ||
        compare(a.grant.authorization_id, b.grant.authorization_id),
    )
    .map(({ grant, properties: covered }) => ({
      ...grant,
      properties: covered.map((p) => ({
        property_rid: p.rid,
        property_id: p.propertyId,
        name: p.name,
        status: p.stale ? 'stale' : 'active',
      })),
    }));
}

/** The grants' agents once each (grants come sorted by agent), with what their grants say they are authorized for. */
function authorizedAgents(
  grants: ReadonlyArray<{ agent_url_canonical: string; authorized_for: string | null }>,
  members: CatalogMembers,
) {
  const byAgent = new Map<string, Set<string>>();
  for (const g of grants) {
    const texts = byAgent.get(g.agent_url_canonical) ?? new Set<string>();
    if (g.authorized_for) texts.add(g.authorized_for);
    byAgent.set(g.agent_url_canonical, texts);
  }
  return [...byAgent].map(([url, texts]) => ({
    url,
    ...(texts.size > 0 ? { authorized_for: [...texts].join('; ') } : {}),
    ...standing(url, members),
  }));
}

/** The agents of every operator declaring one of `properties` in its brand.json: the agent side's claim, authorized or not. */
function claimingAgents(properties: readonly IndexedProperty[], members: CatalogMembers) {
  const urls = new Set(properties.flatMap((p) => p.declarations.flatMap((d) => d.agents)));
  return [...urls].sort(compare).map((url) => ({ url, ...standing(url, members) }));
}

function standing(
  url: string,
  members: CatalogMembers,
): { source: 'registered' | 'discovered'; member?: CatalogMember } {
  const member = members.of(url);
  return member ? { source: 'registered', member } : { source: 'discovered' };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
