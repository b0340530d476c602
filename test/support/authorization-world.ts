import type { Database } from '../../src/db/database.ts';
import {
  applyAdagents,
  applyBrandJson,
  markStale,
  projectAdagents,
  projectBrandJson,
} from '../../src/registry/graph/index.ts';

/**
 * A small authorization graph with one case of each answer, written the way the crawler writes
 * (projection, then apply, in one transaction each), so the feed carries it all.
 *
 * - dailyplanet.example sells its site and iOS app through Meridian (delegated), its CTV app and
 *   site directly, and its app through AdNet (ad_network).
 * - Meridian's brand.json runs the Meridian agent and declares the site delegated (matches) and the
 *   app direct (a relationship mismatch) and stalenews.example delegated.
 * - dailyplanet.example's own brand.json runs its direct agent and owns its site and CTV app.
 * - AdNet publishes no brand.json: nobody declares its inventory.
 * - stalenews.example authorized Meridian, then its file disappeared: stale.
 */
export const agents = {
  meridian: 'https://sales.meridian.example/mcp',
  direct: 'https://direct.dailyplanet.example/mcp',
  adnet: 'https://network.adnet.example/mcp',
};

export const signingKey = {
  kid: 'meridian-2026',
  kty: 'OKP',
  crv: 'Ed25519',
  x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
};

export function dailyPlanet(options: { withMeridian?: boolean } = {}): Record<string, unknown> {
  const withMeridian = options.withMeridian ?? true;
  return {
    properties: [
      {
        property_id: 'site',
        property_type: 'website',
        name: 'Daily Planet',
        identifiers: [{ type: 'domain', value: 'dailyplanet.example' }],
        tags: ['news'],
      },
      {
        property_id: 'ios_app',
        property_type: 'mobile_app',
        name: 'Daily Planet for iOS',
        identifiers: [{ type: 'ios_bundle', value: 'com.dailyplanet.app' }],
        tags: ['news', 'app'],
      },
      {
        property_id: 'ctv',
        property_type: 'ctv_app',
        name: 'Daily Planet TV',
        identifiers: [{ type: 'roku_store_id', value: 'dp-roku-1' }],
        tags: ['ctv'],
      },
    ],
    authorized_agents: [
      ...(withMeridian
        ? [
            {
              url: agents.meridian,
              authorized_for: 'Display and app inventory',
              authorization_type: 'property_ids',
              property_ids: ['site', 'ios_app'],
              delegation_type: 'delegated',
              signing_keys: [signingKey],
            },
          ]
        : []),
      {
        url: agents.direct,
        authorized_for: 'All direct sales',
        authorization_type: 'property_tags',
        property_tags: ['news', 'ctv'],
        delegation_type: 'direct',
      },
      {
        url: agents.adnet,
        authorized_for: 'App remnant',
        authorization_type: 'property_tags',
        property_tags: ['app'],
        delegation_type: 'ad_network',
      },
    ],
  };
}

const staleNews = {
  properties: [
    {
      property_id: 'site',
      property_type: 'website',
      name: 'Stale News',
      identifiers: [{ type: 'domain', value: 'stalenews.example' }],
    },
  ],
  authorized_agents: [
    {
      url: agents.meridian,
      authorized_for: 'Display',
      authorization_type: 'property_ids',
      property_ids: ['site'],
      delegation_type: 'delegated',
    },
  ],
};

export const meridianBrand = {
  house: {
    domain: 'meridian.example',
    name: 'Meridian Media',
    agents: [{ type: 'sales', url: agents.meridian, id: 'meridian_sales' }],
  },
  brands: [
    {
      id: 'meridian',
      names: [{ en: 'Meridian Media' }],
      keller_type: 'master',
      properties: [
        { type: 'website', identifier: 'meridian.example' },
        { type: 'website', identifier: 'dailyplanet.example', relationship: 'delegated' },
        { type: 'mobile_app', identifier: 'com.dailyplanet.app', relationship: 'direct' },
        { type: 'website', identifier: 'stalenews.example', relationship: 'delegated' },
      ],
    },
  ],
};

const dailyPlanetBrand = {
  house: {
    domain: 'dailyplanet.example',
    name: 'Daily Planet',
    agents: [{ type: 'sales', url: agents.direct, id: 'dp_direct' }],
  },
  brands: [
    {
      id: 'dailyplanet',
      names: [{ en: 'Daily Planet' }],
      keller_type: 'master',
      properties: [
        { type: 'website', identifier: 'dailyplanet.example' },
        { type: 'ctv_app', identifier: 'dp-roku-1' },
      ],
    },
  ],
};

export async function publishAdagents(
  db: Database,
  domain: string,
  document: Record<string, unknown>,
  now = new Date(),
): Promise<void> {
  const url = `https://${domain}/.well-known/adagents.json`;
  await db.transaction((tx) => applyAdagents(tx, projectAdagents(domain, url, document), document, now));
}

export async function publishBrandJson(db: Database, domain: string, document: Record<string, unknown>): Promise<void> {
  await db.transaction((tx) =>
    applyBrandJson(
      tx,
      domain,
      `https://${domain}/.well-known/brand.json`,
      projectBrandJson(domain, document),
      document,
    ),
  );
}

export async function buildWorld(db: Database): Promise<void> {
  await publishBrandJson(db, 'meridian.example', meridianBrand);
  await publishBrandJson(db, 'dailyplanet.example', dailyPlanetBrand);
  await publishAdagents(db, 'dailyplanet.example', dailyPlanet());
  await publishAdagents(db, 'stalenews.example', staleNews);
  await db.transaction((tx) => markStale(tx, 'stalenews.example', 'adagents.json answered HTTP 404', new Date()));
}
