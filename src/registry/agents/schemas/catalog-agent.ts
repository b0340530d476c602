import { Type } from 'typebox';
import { AgentType, Enroller, Visibility } from './fields.ts';

/** An enrolled agent as the catalog lists it (`$id` CatalogAgent), with the enrichments asked for. */

/** What every enrichment adds, as probing and the authorization index know it. */
const Enrichment = Type.Record(Type.String(), Type.Unknown());
const DescribedEnrichment = (description: string) => Type.Record(Type.String(), Type.Unknown(), { description });

export const AgentEntry = Type.Object(
  {
    agent_url: Type.String(),
    url: Type.String({ description: 'agent_url again, as the protocol’s registry client reads it.' }),
    name: Type.String(),
    type: AgentType,
    description: Type.Optional(Type.String()),
    visibility: Visibility,
    source: Type.Literal('registered', {
      description:
        'Every agent of the catalog was enrolled by a member organization (an agent only publishers’ adagents.json name is not listed here).',
    }),
    operator: Enroller,
    member: Type.Object(
      { slug: Type.String(), display_name: Type.String() },
      { description: 'operator again, as the registry client reads it.' },
    ),
    enrolled_at: Type.String({ format: 'date-time' }),
    added_date: Type.String({
      format: 'date-time',
      description: 'enrolled_at again, as the registry client reads it.',
    }),
    updated_at: Type.String({ format: 'date-time' }),
    health: Type.Optional(
      DescribedEnrichment(
        'health=true: the last probe (reachable, latency_ms, protocols, last_probed_at, error) and, as the registry client reads it, online, checked_at (null before the first probe), ' +
          'response_time_ms and tools_count (the tasks it listed, at most 500 counted).',
      ),
    ),
    capabilities: Type.Optional(
      DescribedEnrichment(
        'capabilities=true: when get_ap_capabilities was fetched and whether that is stale; tools_count (0 until the agent listed its tasks); measurement_capabilities.metrics for a measurement agent.',
      ),
    ),
    creative_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    signals_capabilities: Type.Optional(Type.Union([Enrichment, Type.Null()])),
    metrics: Type.Optional(Type.Array(Enrichment)),
    properties: Type.Optional(Enrichment),
    publisher_domains: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: 100,
        description:
          'properties=true: the publishers whose adagents.json authorizes it, by domain (the first 100; property_summary counts all).',
      }),
    ),
    property_summary: Type.Optional(
      Type.Object(
        {
          total_count: Type.Integer({ description: 'Properties it is authorized for.' }),
          count_by_type: Type.Record(Type.String(), Type.Integer(), {
            description: 'Those properties by property type.',
          }),
          tags: Type.Array(Type.String(), { maxItems: 100, description: 'Their tags (the first 100, sorted).' }),
          publisher_count: Type.Integer(),
        },
        { description: 'properties=true: what it is authorized to sell, as the registry client reads it.' },
      ),
    ),
    compliance: Type.Optional(
      Type.Union([Enrichment, Type.Null()], {
        description:
          'compliance=true: status, checked_at and the checks of the last probe, and the summary the registry client reads (lifecycle_stage, tracks, streak_days, last_checked_at, headline, verified, verified_roles).',
      }),
    ),
    verification: Type.Optional(Type.Union([Enrichment, Type.Null()])),
  },
  { $id: 'CatalogAgent', description: 'An enrolled agent, with the enrichments asked for.' },
);
