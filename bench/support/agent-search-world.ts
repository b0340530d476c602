import type { Database } from '../../src/db/database.ts';

/**
 * A registry of 10,000 sales agents and a million properties for the agent search benchmark,
 * written straight into the graph's tables with generate_series (the crawler's own path would
 * take the better part of an hour for a million properties): 20,000 publishers of 50 properties
 * each (websites, apps, CTV apps, DOOH screens and podcasts, 40 tags), each authorizing 3 of the
 * agents, for all its properties, for one tag, or for five properties by id, in one of 8
 * countries. Every agent is granted by about 6 publishers. `ap serve` builds its index from these
 * rows through the feed snapshot, as it would from crawled ones.
 */
export const AGENTS = 10_000;
export const PUBLISHERS = 20_000;
export const PROPERTIES_PER_PUBLISHER = 50;
export const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'CA', 'AU', 'JP', 'BR'];
export const TAGS = 40;

export async function buildAgentSearchWorld(db: Database): Promise<void> {
  await db.exec(`
    insert into publishers (domain, status, document_url, manager_domain, document_hash, discovered_at, crawled_at)
    select 'pub-' || i || '.example', 'active', 'https://pub-' || i || '.example/.well-known/adagents.json', null, 'bench', now(), now()
    from generate_series(0, ${PUBLISHERS - 1}) as i;

    insert into catalog_properties (property_rid, publisher_domain, property_key, property_id, property_type, name, tags, property, status, last_resolved_at)
    select gen_random_uuid(), 'pub-' || i || '.example', 'p' || j, 'p' || j, t.type, 'Publisher ' || i || ' property ' || j, array['tag-' || ((i * 7 + j) % ${TAGS})],
           jsonb_build_object('property_id', 'p' || j, 'property_type', t.type, 'name', 'Publisher ' || i || ' property ' || j, 'tags', jsonb_build_array('tag-' || ((i * 7 + j) % ${TAGS}))),
           'active', now()
    from generate_series(0, ${PUBLISHERS - 1}) as i, generate_series(0, ${PROPERTIES_PER_PUBLISHER - 1}) as j,
         lateral (select (array['website', 'website', 'website', 'mobile_app', 'mobile_app', 'ctv_app', 'dooh', 'podcast'])[1 + (i + j) % 8] as type) as t;

    insert into property_identifiers (identifier_type, identifier_value, property_rid)
    select 'domain', property_key || '.' || publisher_domain, property_rid from catalog_properties;

    insert into authorizations (id, publisher_domain, auth_key, agent_url, agent_url_canonical, authorization_type, authorized_for, delegation_type, entry, created_at, updated_at)
    select gen_random_uuid(), 'pub-' || i || '.example', 'k' || k, a.url, a.url, (array['all', 'property_tags', 'property_ids'])[1 + k], 'Bench inventory', 'delegated',
           jsonb_build_object('url', a.url, 'authorized_for', 'Bench inventory', 'delegation_type', 'delegated',
                              'countries', jsonb_build_array((array[${COUNTRIES.map((c) => `'${c}'`).join(', ')}])[1 + (i + k) % ${COUNTRIES.length}])),
           now(), now()
    from generate_series(0, ${PUBLISHERS - 1}) as i, generate_series(0, 2) as k,
         lateral (select 'https://sales.agent-' || ((i * 3 + k * 3337) % ${AGENTS}) || '.example/mcp' as url) as a;

    insert into authorization_scopes (authorization_id, target_publisher, kind, value)
    select id, publisher_domain, 'all', '' from authorizations where auth_key = 'k0'
    union all
    select id, publisher_domain, 'tag', 'tag-' || (abs(hashtext(publisher_domain)) % ${TAGS}) from authorizations where auth_key = 'k1'
    union all
    select id, publisher_domain, 'property_id', 'p' || n from authorizations, generate_series(0, 4) as n where auth_key = 'k2';
  `);
}
