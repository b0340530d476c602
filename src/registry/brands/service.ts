import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import type { Principal } from '../../auth/principal.ts';
import { recordSkeleton, recordSkeletons } from '../homographs/index.ts';
import type { ProofCheck } from '../ownership/index.ts';
import { ApError } from '../../protocol/errors.ts';
import { brandTables, insertRevision, snapshotAt } from '../revisions/sql.ts';
import * as sql from './sql.ts';
import type { BrandRow, BrandSource } from './sql.ts';

export interface BrandManifest {
  name?: string;
  description?: string;
  logos?: Array<{ url: string; tags?: string[] }>;
  colors?: Array<{ hex: string; type?: string }>;
}

/** The resolution record of the spec. A brand with no house of record is its own (master) house. */
export function toResolution(row: BrandRow) {
  return {
    canonical_id: row.id,
    canonical_domain: row.domain,
    brand_name: row.brand_name,
    keller_type: row.keller_type ?? 'master',
    house_domain: row.house_domain ?? row.domain,
    source: row.source,
  };
}

export function toEntry(row: BrandRow) {
  const { canonical_id, canonical_domain, ...rest } = toResolution(row);
  return {
    id: canonical_id,
    domain: canonical_domain,
    ...rest,
    brand_manifest: row.manifest as BrandManifest,
    revision_number: row.revision,
    updated_at: row.updated_at.toISOString(),
  };
}

export async function resolve(db: Queryable, domain: string): Promise<BrandRow | undefined> {
  return (await sql.brandsForDomains(db, [domain])).get(domain);
}

export async function resolveMany(db: Queryable, domains: string[]): Promise<Map<string, BrandRow>> {
  return sql.brandsForDomains(db, [...new Set(domains)]);
}

export interface SaveInput {
  domain: string;
  brand_name: string;
  manifest: BrandManifest;
}

export interface SaveOutcome {
  row: BrandRow;
  created: boolean;
}

/** A community save: the entry and its revision in one transaction, refused for authoritative brands. */
export async function saveCommunity(db: Database, input: SaveInput, principal: Principal, proof: ProofCheck): Promise<SaveOutcome> {
  return db.transaction((tx) => saveCommunityIn(tx, input, principal, proof));
}

/** The save inside a transaction the caller holds (an approved review applies it this way). */
export async function saveCommunityIn(tx: Queryable, input: SaveInput, principal: Principal, proof: ProofCheck): Promise<SaveOutcome> {
  await refuseAuthoritative(tx, input.domain);
  await proof(tx, principal, input.domain);
  await recordSkeleton(tx, input.domain);
  const row = await sql.upsertEditable(tx, { id: randomUUID(), domain: input.domain, brand_name: input.brand_name, manifest: { ...input.manifest } }, 'community');
  if (!row) throw authoritative(input.domain);
  await insertRevision(tx, brandTables, row.id, {
    revision_number: row.revision,
    editor_name: principal.displayName,
    edit_summary: row.revision === 1 ? 'Created' : 'Updated',
    source: 'community',
    snapshot: snapshot(row),
  });
  return { row, created: row.revision === 1 };
}

export interface EnrichedInput {
  domain: string;
  brand_name: string;
  manifest: BrandManifest;
  provider: string;
}

/**
 * Stores enrichment as a revision by `system`, but only where nobody has said more: community and
 * authoritative entries are never overwritten. Returns undefined when nothing was stored.
 */
export async function saveEnriched(db: Database, input: EnrichedInput): Promise<BrandRow | undefined> {
  return db.transaction(async (tx) => {
    const resolved = await resolve(tx, input.domain);
    if (resolved && resolved.source !== 'enriched') return undefined;
    await recordSkeleton(tx, input.domain);
    const row = await sql.upsertEditable(tx, { id: randomUUID(), domain: input.domain, brand_name: input.brand_name, manifest: { ...input.manifest } }, 'enriched', [
      'community',
    ]);
    if (!row) return undefined;
    await insertRevision(tx, brandTables, row.id, {
      revision_number: row.revision,
      editor_name: 'system',
      edit_summary: `Enriched from ${input.provider}`,
      source: 'enriched',
      snapshot: snapshot(row),
    });
    return row;
  });
}

/** Restores an earlier revision's content as a new revision that says so. */
export async function rollback(db: Database, domain: string, toRevision: number, principal: Principal, proof: ProofCheck): Promise<BrandRow> {
  return db.transaction(async (tx) => {
    const current = await sql.lockOwn(tx, domain);
    if (!current) throw new ApError('not_found', `No brand is registered for ${domain}.`);
    if (current.source === 'brand_json') throw authoritative(domain);
    await proof(tx, principal, domain);
    if (toRevision >= current.revision) {
      throw new ApError('invalid_request', `Revision ${toRevision} is not an earlier revision; the current one is ${current.revision}.`);
    }
    const old = await snapshotAt(tx, brandTables, current.id, toRevision);
    if (!old) throw new ApError('not_found', `Brand ${domain} has no revision ${toRevision}.`);
    const row = await sql.restore(tx, current.id, {
      brand_name: String(old.brand_name),
      manifest: (old.manifest ?? {}) as Record<string, unknown>,
      source: old.source as BrandSource,
      keller_type: (old.keller_type as string | null) ?? null,
      house_domain: (old.house_domain as string | null) ?? null,
    });
    await insertRevision(tx, brandTables, row.id, {
      revision_number: row.revision,
      editor_name: principal.displayName,
      edit_summary: `Rolled back to revision ${toRevision}`,
      source: row.source,
      is_rollback: true,
      rolled_back_to: toRevision,
      snapshot: snapshot(row),
    });
    return row;
  });
}

/**
 * What the crawler calls for each brand of a house's brand.json. A re-crawl that finds the brand
 * as it was adds no revision.
 */
export async function saveAuthoritative(tx: Queryable, brand: Omit<sql.AuthoritativeBrand, 'id'>, editor = 'system'): Promise<BrandRow> {
  const current = await sql.lockOwn(tx, brand.domain);
  if (current?.source === 'brand_json' && isDeepStrictEqual(authoritativeFields(current, await sql.aliasesOf(tx, current.id)), authoritativeFields(brand, brand.aliases))) {
    return current;
  }
  const row = await sql.upsertAuthoritative(tx, { ...brand, id: randomUUID() });
  await recordSkeletons(tx, [brand.domain, ...brand.aliases]);
  await insertRevision(tx, brandTables, row.id, {
    revision_number: row.revision,
    editor_name: editor,
    edit_summary: 'Projected from brand.json',
    source: 'brand_json',
    snapshot: snapshot(row),
  });
  return row;
}

function authoritativeFields(b: Pick<BrandRow, 'brand_name' | 'brand_key' | 'keller_type' | 'house_domain' | 'manifest'>, aliases: string[]) {
  return { brand_name: b.brand_name, brand_key: b.brand_key, keller_type: b.keller_type, house_domain: b.house_domain, manifest: b.manifest, aliases: [...aliases].sort() };
}

async function refuseAuthoritative(tx: Queryable, domain: string): Promise<void> {
  const resolved = await resolve(tx, domain);
  if (resolved?.source === 'brand_json') throw authoritative(domain);
}

function authoritative(domain: string): ApError {
  return new ApError('authoritative_entry', `${domain} is managed by its brand.json and cannot be edited through the registry.`);
}

function snapshot(row: BrandRow): Record<string, unknown> {
  return {
    domain: row.domain,
    brand_name: row.brand_name,
    keller_type: row.keller_type,
    house_domain: row.house_domain,
    source: row.source,
    manifest: row.manifest,
  };
}
