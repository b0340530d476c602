import { Type } from 'typebox';
import { Domain } from '../../../protocol/wire/common.ts';
import { exampleDomain, exampleUrl, nullable, Timestamp } from './common.ts';

/** `GET /api/manifest-refs/lookup`: where a domain's adagents.json and brand.json are, and how their last fetch went. */

/** The manifest kinds a lookup may ask for, in the spellings people use. */
export const manifestTypes = {
  adagents: 'adagents_json',
  'adagents.json': 'adagents_json',
  adagents_json: 'adagents_json',
  brand: 'brand_json',
  'brand.json': 'brand_json',
  brand_json: 'brand_json',
} as const;

export const ManifestRefsQuery = Type.Object({
  domain: Domain,
  type: Type.Optional(
    Type.Union(
      Object.keys(manifestTypes).map((t) => Type.Literal(t)),
      {
        description:
          'Which manifest `reference` describes: adagents.json (`adagents`, `adagents.json`, `adagents_json`) or brand.json (`brand`, `brand.json`, `brand_json`); without it, the first of the two the registry has found.',
        examples: ['adagents.json'],
      },
    ),
  ),
});

const FetchStatus = Type.Union(
  ['found', 'absent', 'invalid', 'transient', 'not_fetched'].map((s) => Type.Literal(s)),
  {
    description:
      'How the crawler’s last fetch went: found, absent (404/410), invalid (not JSON, schema, a loop, too many hops, too large, a private address), transient (time-out, 5xx, 429); not_fetched when no crawl recorded a fetch (the document may still be held: seeded, or fetched for a brand lookup).',
  },
);

const ManifestRef = Type.Object({
  well_known_url: Type.String({ description: 'Where the domain publishes the document.' }),
  status: FetchStatus,
  reason: nullable(Type.String(), 'Why the last fetch did not find it.'),
  url: nullable(
    Type.String(),
    'Where the document that counts was read (after hops), or where the last fetch stopped.',
  ),
  hops: Type.Array(Type.String(), {
    description:
      'The pointers followed from the well-known address: authoritative_location targets (adagents.json), house pointers (brand.json).',
  }),
  fetched_at: nullable(Timestamp, 'When the crawler last fetched it.'),
  stored_at: nullable(Timestamp, 'When the registry last stored a good copy.'),
});

export const ManifestRefs = Type.Object(
  {
    domain: Type.String(),
    adagents_json: ManifestRef,
    brand_json: Type.Intersect([
      ManifestRef,
      Type.Object({
        house_domain: nullable(Type.String(), 'The house the registry’s brand record names (from a brand.json).'),
      }),
    ]),
    publisher: nullable(
      Type.Object({
        status: Type.Union([Type.Literal('active'), Type.Literal('stale')]),
        stale_reason: nullable(Type.String(), 'Why, while stale.'),
        manager_domain: nullable(Type.String(), 'Who serves the file for a managed network.'),
      }),
      'The registry’s publisher record, when its adagents.json was ever projected.',
    ),
    last_crawled_at: nullable(Timestamp, 'The crawler’s last visit.'),
    next_crawl_at: nullable(Timestamp, 'When the domain is due again.'),
    // The protocol's registry client reads these (lookupManifestRef).
    success: Type.Boolean({ description: 'Whether `reference` is there (as `found`).' }),
    found: Type.Boolean({
      description: 'The registry has found the manifest asked for (`type`): read (valid or not), or a good copy held.',
    }),
    reference: Type.Optional(
      Type.Object(
        {
          manifest_type: Type.Union([Type.Literal('adagents_json'), Type.Literal('brand_json')], {
            description: 'Which manifest this is.',
          }),
          reference_type: Type.Literal('url', {
            description:
              'The manifest is a file at `manifest_url` (the registry does not record manifests served by agents).',
          }),
          manifest_url: nullable(Type.String(), 'Where the manifest that counts was read, after pointers.'),
          agent_url: Type.Null({ description: 'Always null: see reference_type.' }),
          agent_id: Type.Null({ description: 'Always null: see reference_type.' }),
          verification_status: Type.Union(
            ['pending', 'valid', 'invalid', 'unreachable'].map((s) => Type.Literal(s)),
            {
              description:
                'The last fetch: `valid` (found), `invalid`, `unreachable` (a transient failure, or the file is gone while a copy is held), `pending` (held, never fetched by a crawl).',
            },
          ),
        },
        { description: 'With `found`: the manifest asked for, as the protocol’s registry client reads it.' },
      ),
    ),
  },
  {
    examples: [
      {
        success: true,
        found: true,
        reference: {
          manifest_type: 'adagents_json',
          reference_type: 'url',
          manifest_url: 'https://network.example/adagents/dailyplanet.json',
          agent_url: null,
          agent_id: null,
          verification_status: 'valid',
        },
        domain: exampleDomain,
        adagents_json: {
          well_known_url: exampleUrl,
          status: 'found',
          reason: null,
          url: 'https://network.example/adagents/dailyplanet.json',
          hops: ['https://network.example/adagents/dailyplanet.json'],
          fetched_at: '2026-03-01T12:00:00.000Z',
          stored_at: '2026-03-01T12:00:00.000Z',
        },
        brand_json: {
          well_known_url: `https://${exampleDomain}/.well-known/brand.json`,
          status: 'absent',
          reason: 'https://dailyplanet.example/.well-known/brand.json answered HTTP 404',
          url: `https://${exampleDomain}/.well-known/brand.json`,
          hops: [],
          fetched_at: '2026-03-01T12:00:00.000Z',
          stored_at: null,
          house_domain: null,
        },
        publisher: { status: 'active', stale_reason: null, manager_domain: 'network.example' },
        last_crawled_at: '2026-03-01T12:00:00.000Z',
        next_crawl_at: '2026-03-02T11:12:00.000Z',
      },
    ],
  },
);
