import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { Database, Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import * as accounts from '../accounts/sql.ts';
import type { Role } from '../accounts/sql.ts';
import type { Principal } from '../principal.ts';
import { hashKey, lookupPrefix, mintKey } from './key-format.ts';
import * as sql from './sql.ts';

export type { ApiKeyRow } from './sql.ts';

export interface CreateKeyInput {
  organizationSlug: string;
  name: string;
  role?: Role;
  createdBy?: string;
}

/** Creates a key; the returned `key` is the only time the secret exists outside the caller. */
export async function createKey(db: Queryable, input: CreateKeyInput): Promise<{ key: string; record: sql.ApiKeyRow }> {
  const org = await accounts.organizationBySlug(db, input.organizationSlug);
  if (!org) throw new ApError('not_found', `No organization has the slug "${input.organizationSlug}".`);
  const name = input.name.trim();
  if (name === '' || name.length > 100) throw new ApError('invalid_request', 'A key name is 1 to 100 characters.');
  const minted = mintKey();
  const record = await sql.insertKey(db, {
    id: randomUUID(),
    organization_id: org.id,
    name,
    prefix: minted.prefix,
    key_hash: minted.hash,
    role: input.role ?? 'member',
    created_by: input.createdBy ?? null,
  });
  return { key: minted.key, record };
}

export { keyById, listKeys, revokeKey } from './sql.ts';

/** A key that proved itself: the principal it stands for, and its id (to record its use). */
export interface VerifiedKey {
  keyId: string;
  principal: Principal;
}

/** The live key `credential` is, or null; `hash` is its SHA-256 (`hashKey`), which the caller has already. */
export async function verifyKey(
  db: Queryable,
  credential: string,
  hash: Buffer = hashKey(credential),
): Promise<VerifiedKey | null> {
  const row = await sql.keyByPrefix(db, lookupPrefix(credential));
  if (!row || row.revoked_at !== null) return null;
  if (!timingSafeEqual(Buffer.from(row.key_hash), hash)) return null;
  return {
    keyId: row.id,
    principal: {
      kind: 'api_key',
      subject: row.id,
      displayName: `${row.organization_slug}/${row.name}`,
      organization: {
        organizationId: row.organization_id,
        slug: row.organization_slug,
        role: row.role,
        apiTier: row.api_tier,
        registryAdmin: row.is_admin,
      },
    },
  };
}

/**
 * Records a key's use (`last_used_at`) at most once a minute per key, remembered here so that a
 * busy key costs no write, nor a read, per request. Not awaited: a failure loses one timestamp.
 */
export function keyUseRecorder(db: Queryable, now: () => number): (keyId: string) => void {
  const recorded = new Map<string, number>();
  return (keyId) => {
    const at = now();
    if (at - (recorded.get(keyId) ?? -Infinity) < 60_000) return;
    if (recorded.size > 100_000) recorded.clear();
    recorded.set(keyId, at);
    void sql.touchKey(db, keyId).catch(() => recorded.delete(keyId));
  };
}

export const ADMIN_ORGANIZATION = 'admin';
const BOOTSTRAP_KEY_NAME = 'AP_ADMIN_KEY';

/**
 * Makes `AP_ADMIN_KEY` an admin key of the operator's organization (created when missing). A
 * changed value replaces the previous one: the old value stops working.
 */
export async function bootstrapAdminKey(db: Database, value: string): Promise<void> {
  await db.transaction(async (tx) => {
    const org = await adminOrganization(tx, 'AP_ADMIN_KEY');
    await sql.reinstateBootstrapKey(tx, {
      id: randomUUID(),
      organization_id: org.id,
      name: BOOTSTRAP_KEY_NAME,
      prefix: lookupPrefix(value),
      key_hash: hashKey(value),
      role: 'admin',
      created_by: null,
    });
  });
}

/**
 * A new admin key of the operator's organization (created when missing), as `ap keys create --org
 * admin --role admin` would make: what the demo registry hands a newcomer on its first start.
 */
export async function createAdminKey(db: Queryable, name: string): Promise<{ key: string; record: sql.ApiKeyRow }> {
  await adminOrganization(db, name);
  return createKey(db, { organizationSlug: ADMIN_ORGANIZATION, name, role: 'admin' });
}

/** The operator's organization, created when missing; `purpose` names who asked, should the slug be taken. */
async function adminOrganization(db: Queryable, purpose: string): Promise<accounts.OrganizationRow> {
  await accounts.insertOrganization(db, {
    id: randomUUID(),
    slug: ADMIN_ORGANIZATION,
    name: 'Registry operators',
    api_tier: true,
    is_admin: true,
  });
  const org = (await accounts.organizationBySlug(db, ADMIN_ORGANIZATION))!;
  if (!org.is_admin)
    throw new Error(
      `${purpose}: the organization "${ADMIN_ORGANIZATION}" exists and is not the operator's organization.`,
    );
  return org;
}
