import type { Queryable } from '../../db/database.ts';
import { likePattern } from '../../db/like.ts';

/** Every query of the search capability: one per group of results. */

export interface Search {
  /** The text to look for, trimmed. */
  q: string;
  /** Results per group. */
  limit: number;
}

/** Brands whose domain or name contains `q`: the exact domain first, then by name. */
export async function matchingBrands(db: Queryable, { q, limit }: Search) {
  return db.query<{ domain: string; brand_name: string; source: string }>(
    `select domain, brand_name, source from brands
     where domain ilike $1 escape '\\' or brand_name ilike $1 escape '\\'
     order by (domain = $2) desc, lower(brand_name), domain limit $3`,
    [likePattern(q), q.toLowerCase(), limit],
  );
}

/** Publishers whose domain contains `q`: the exact domain first. */
export async function matchingPublishers(db: Queryable, { q, limit }: Search) {
  return db.query<{ domain: string; source: string; agent_count: number }>(
    `select publisher_domain as domain, source, jsonb_array_length(authorized_agents) as agent_count from properties
     where publisher_domain ilike $1 escape '\\'
     order by (publisher_domain = $2) desc, publisher_domain limit $3`,
    [likePattern(q), q.toLowerCase(), limit],
  );
}

/** Properties declared by publishers whose name contains `q`, by name. */
export async function matchingProperties(db: Queryable, { q, limit }: Search) {
  return db.query<{ publisher_domain: string; type: string; name: string }>(
    `select p.publisher_domain, i->>'type' as type, i->>'name' as name
     from properties p cross join lateral jsonb_array_elements(p.inventory) i
     where i->>'name' ilike $1 escape '\\'
     order by lower(i->>'name'), p.publisher_domain limit $2`,
    [likePattern(q), limit],
  );
}
