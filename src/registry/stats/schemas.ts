import { Type } from 'typebox';

/** Wire schema of `GET /api/registry/stats` (its fields are "not shown" in the spec). */

const Timestamp = Type.String({ format: 'date-time' });
const Counts = (description: string) => Type.Record(Type.String(), Type.Integer(), { description });
const ActiveStale = (what: string) =>
  Type.Object({
    total: Type.Integer(),
    active: Type.Integer(),
    stale: Type.Integer({
      description: `${what} whose adagents.json failed its last re-crawl (or, for properties, that a later file dropped).`,
    }),
  });

export const Stats = Type.Object(
  {
    publishers: ActiveStale('Publishers'),
    properties: ActiveStale('Properties'),
    collections: Type.Object({
      total: Type.Integer({ description: 'Collections publishers declare (removed ones not counted).' }),
    }),
    authorizations: Type.Object({
      total: Type.Integer({ description: 'authorized_agents[] entries across all adagents.json files.' }),
      agents: Type.Integer({
        description: 'Distinct agents (canonical URL) some adagents.json authorizes, enrolled or not.',
      }),
    }),
    index_cursor: Type.Union([Type.String(), Type.Null()], {
      description:
        'The last feed event the counts above include: they are this instance’s in-memory index, current to that event.',
    }),
    brands: Type.Object({ total: Type.Integer(), by_source: Counts('brand_json, enriched, community.') }),
    agents: Type.Object(
      {
        total: Type.Integer({ description: 'Agents enrolled in the catalog, whatever their visibility.' }),
        by_type: Counts('brand, rights, measurement, governance, creative, sales, buying, signals.'),
        by_visibility: Counts('public, members_only, private.'),
      },
      {
        description:
          'The agent catalog (GET /api/registry/agents): counts only, so private agents are counted but never named.',
      },
    ),
    feed: Type.Object({
      events_last_day: Type.Integer({ description: 'Events committed in the 24 hours before as_of.' }),
      latest_event_at: Type.Union([Timestamp, Type.Null()]),
    }),
    crawl: Type.Object(
      {
        domains: Type.Integer({ description: 'Domains in the crawl queue.' }),
        due: Type.Integer({ description: 'Due and not being crawled: the backlog.' }),
        in_progress: Type.Integer(),
        failing: Type.Integer({ description: 'Domains whose last crawls failed transiently (backing off).' }),
        never_crawled: Type.Integer(),
        oldest_due_at: Type.Union([Timestamp, Type.Null()], { description: 'How far behind the backlog is.' }),
        crawled_last_day: Type.Object({
          total: Type.Integer(),
          by_outcome: Counts('found, absent, invalid, transient: each domain’s latest crawl.'),
        }),
      },
      { description: 'Crawl health.' },
    ),
    as_of: Type.String({
      format: 'date-time',
      description:
        'When brands, agents, feed and crawl were counted (refreshed in the background, about every minute).',
    }),
  },
  {
    examples: [
      {
        publishers: { total: 6, active: 5, stale: 1 },
        properties: { total: 14, active: 12, stale: 2 },
        collections: { total: 2 },
        authorizations: { total: 11, agents: 5 },
        index_cursor: '0190a5b2-7c1e-7abc-8def-0123456789ab',
        brands: { total: 9, by_source: { brand_json: 7, enriched: 0, community: 2 } },
        agents: {
          total: 3,
          by_type: { brand: 0, rights: 0, measurement: 1, governance: 0, creative: 0, sales: 2, buying: 0, signals: 0 },
          by_visibility: { public: 2, members_only: 1, private: 0 },
        },
        feed: { events_last_day: 42, latest_event_at: '2026-01-12T09:30:00.123Z' },
        crawl: {
          domains: 8,
          due: 0,
          in_progress: 0,
          failing: 1,
          never_crawled: 0,
          oldest_due_at: null,
          crawled_last_day: { total: 8, by_outcome: { found: 6, absent: 1, invalid: 0, transient: 1 } },
        },
        as_of: '2026-01-12T09:31:00.000Z',
      },
    ],
  },
);
