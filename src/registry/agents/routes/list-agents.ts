import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { Database, Queryable } from '../../../db/database.ts';
import { canonicalAgentUrl } from '../../../protocol/agent-url.ts';
import { decodeCursor, encodeCursor } from '../../../protocol/cursor.ts';
import { errorResponses } from '../../../protocol/wire/error.ts';
import { agentDomains, type AuthorizationIndex } from '../../lookups/index.ts';
import { entryOf } from '../entry.ts';
import { matchesMeasurement, measurementFilter } from '../measurement.ts';
import type { ProbeState } from '../probing/index.ts';
import { propertySummaryOf } from '../property-summary.ts';
import { AgentList, ListQuery } from '../schemas/index.ts';
import { listAgents, type AgentRow } from '../sql.ts';
import { viewerOf } from '../visibility.ts';

/** What probing knows of each agent asked for (health, capabilities, compliance, verification). */
export type ReadProbes = (db: Queryable, agentUrls: readonly string[]) => Promise<Map<string, ProbeState>>;

/** Measurement agents are few: the filters read all the caller may see, then the page is taken from those that match. */
const allMeasurement = 100_000;
/** Publisher domains listed per agent (property_summary counts all). */
const publisherDomainsShown = 100;

/** `GET /api/registry/agents`: the catalog of enrolled agents the caller may see, with the enrichments asked for. */
export function listAgentsRoute(
  app: FastifyInstance,
  db: Database,
  readProbes: ReadProbes,
  index: () => AuthorizationIndex,
): void {
  app.get<{ Querystring: Static<typeof ListQuery> }>(
    '/api/registry/agents',
    {
      config: { auth: 'optional' },
      schema: {
        summary: 'List enrolled agents',
        description:
          'The catalog of member-enrolled agents: public ones for everyone, also members_only ones for API-tier members, and your organization’s private ones. ' +
          '`capabilities=true` adds creative_capabilities, signals_capabilities and, for measurement agents, metrics[] from the agent’s get_ap_capabilities (cached up to 24 h; ' +
          'accreditations are the vendor’s claims: verified_by_registry is always false). `health`, `compliance`, `verification` and `properties` add what probing and the ' +
          'authorization graph know. The measurement filters (metric_id and accreditation, repeatable; q) each imply type=measurement. `verified=true` (or verification_mode=spec) keeps the ' +
          'agents holding the verified badge. Each agent also carries, and each enrichment adds, the fields the protocol’s registry client reads under its own names ' +
          '(url, member, source, health.online, property_summary, compliance.tracks…), beside ours.',
        tags: ['Agent Discovery'],
        querystring: ListQuery,
        response: { 200: AgentList, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const query = request.query;
      const filter = measurementFilter(query);
      const viewer = viewerOf(request.principal);
      const limit = query.limit ?? 500;
      const after = decodeCursor(query.cursor, ['agent_url'])?.['agent_url'];
      const modes =
        query.verification_mode === undefined
          ? []
          : Array.isArray(query.verification_mode)
            ? query.verification_mode
            : [query.verification_mode];
      // The badge is earned by the protocol checks (spec); no agent is verified live.
      if (modes.includes('live'))
        return { agents: [], count: 0, cursor: null, has_more: false, sources: { registered: 0, discovered: 0 } };
      const verified = query.verified === true || modes.includes('spec');
      let among: string[] | undefined;
      if (filter) {
        const measured = await listAgents(db, { viewer, type: 'measurement', verified, limit: allMeasurement });
        const probes = await readProbes(
          db,
          measured.map((a) => a.agent_url),
        );
        among = measured
          .filter((a) => matchesMeasurement(probes.get(a.agent_url)?.capabilities?.metrics ?? [], filter))
          .map((a) => a.agent_url);
      }
      if (query.agent_url !== undefined) {
        const named = new Set([query.agent_url, canonicalAgentUrl(query.agent_url) ?? query.agent_url]);
        among = among ? among.filter((url) => named.has(url)) : [...named];
      }
      const rows = await listAgents(db, {
        viewer,
        type: filter ? 'measurement' : query.type,
        verified,
        after,
        limit: limit + 1,
        ...(among ? { among } : {}),
      });
      const page = rows.slice(0, limit);
      const probes =
        query.capabilities || query.health || query.compliance || query.verification
          ? await readProbes(
              db,
              page.map((a) => a.agent_url),
            )
          : undefined;
      const agents = page.map((row) => ({
        ...entryOf(row),
        ...enrichments(row, query, probes?.get(row.agent_url), index),
      }));
      const has_more = rows.length > limit;
      return {
        agents,
        count: agents.length,
        cursor: has_more ? encodeCursor({ agent_url: page.at(-1)!.agent_url }) : null,
        has_more,
        sources: { registered: agents.length, discovered: 0 },
      };
    },
  );
}

/**
 * The enrichments asked for, each with, beside our fields, those the protocol's registry client
 * reads (its AgentHealth, AgentCapabilities, AgentCompliance, PropertySummary).
 */
function enrichments(
  row: AgentRow,
  query: Static<typeof ListQuery>,
  probe: ProbeState | undefined,
  index: () => AuthorizationIndex,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const toolsCount = probe?.tasks ? { tools_count: probe.tasks.length } : {};
  if (query.capabilities) {
    const capabilities = probe?.capabilities;
    out['capabilities'] = {
      ...(capabilities
        ? { fetched_at: capabilities.fetched_at, stale: capabilities.stale }
        : { fetched_at: null, stale: true }),
      tools_count: probe?.tasks?.length ?? 0,
      ...(row.type === 'measurement' ? { measurement_capabilities: { metrics: capabilities?.metrics ?? [] } } : {}),
    };
    out['creative_capabilities'] = capabilities?.creative_capabilities ?? null;
    out['signals_capabilities'] = capabilities?.signals_capabilities ?? null;
    if (row.type === 'measurement') out['metrics'] = capabilities?.metrics ?? [];
  }
  if (query.health) {
    const health = probe?.health;
    out['health'] = health
      ? {
          ...health,
          online: health.reachable === true,
          checked_at: health.last_probed_at,
          ...(health.latency_ms !== undefined ? { response_time_ms: health.latency_ms } : {}),
          ...toolsCount,
        }
      : { probed_at: null, online: false, checked_at: null };
  }
  if (query.compliance) out['compliance'] = probe ? { ...probe.compliance, ...probe.summary } : null;
  if (query.verification) out['verification'] = probe?.verification ?? null;
  if (query.properties) {
    const graph = index();
    const domains = agentDomains(graph, row.agent_url);
    out['properties'] = {
      publisher_count: domains.length,
      property_count: domains.reduce((sum, d) => sum + d.property_count, 0),
      publishers: domains.slice(0, 20).map((d) => ({ domain: d.domain, property_count: d.property_count })),
    };
    out['publisher_domains'] = domains.slice(0, publisherDomainsShown).map((d) => d.domain);
    out['property_summary'] = propertySummaryOf(graph, row.agent_url, domains);
  }
  return out;
}
