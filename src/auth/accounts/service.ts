import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/database.ts';
import { ApError } from '../../protocol/errors.ts';
import type { Principal, Standing } from '../principal.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import * as sql from './sql.ts';

export type { OrganizationRow, Role, UserRow } from './sql.ts';
export { listOrganizations, membershipsOf, organizationBySlug, userById } from './sql.ts';

/** The issuer local users belong to: this service's own identity provider. */
export const LOCAL_ISSUER = 'local';

export interface NewOrganization {
  slug: string;
  name?: string;
  apiTier?: boolean;
  admin?: boolean;
}

export async function createOrganization(db: Queryable, input: NewOrganization): Promise<sql.OrganizationRow> {
  const slug = input.slug.trim().toLowerCase();
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(slug)) {
    throw new ApError(
      'invalid_request',
      `"${input.slug}" is not a valid organization slug: lowercase letters, digits and dashes, at most 63.`,
    );
  }
  const row = await sql.insertOrganization(db, {
    id: randomUUID(),
    slug,
    name: input.name?.trim() || slug,
    api_tier: input.apiTier ?? false,
    is_admin: input.admin ?? false,
  });
  if (!row) throw new ApError('conflict', `An organization with the slug "${slug}" already exists.`);
  return row;
}

export interface NewLocalUser {
  email: string;
  password: string;
  displayName?: string;
}

/** A user who signs in here with email and password. */
export async function createLocalUser(db: Queryable, input: NewLocalUser): Promise<sql.UserRow> {
  const email = input.email.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new ApError('invalid_request', `"${email}" is not an email address.`);
  if (input.password.length < 12) throw new ApError('invalid_request', 'A password has at least 12 characters.');
  const id = randomUUID();
  const row = await sql.insertUser(db, {
    id,
    issuer: LOCAL_ISSUER,
    subject: id,
    email,
    display_name: input.displayName?.trim() || email,
    password_hash: await hashPassword(input.password),
  });
  if (!row) throw new ApError('conflict', `A user with the email ${email} already exists.`);
  return row;
}

export async function addMember(
  db: Queryable,
  organizationSlug: string,
  userId: string,
  role: sql.Role = 'member',
): Promise<void> {
  const org = await sql.organizationBySlug(db, organizationSlug);
  if (!org) throw new ApError('not_found', `No organization has the slug "${organizationSlug}".`);
  await sql.upsertMembership(db, org.id, userId, role);
}

/** The local user with this email and password, or undefined; as slow for a wrong email as for a wrong password. */
export async function signIn(db: Queryable, email: string, password: string): Promise<sql.UserRow | undefined> {
  const user = await sql.localUserByEmail(db, email.trim());
  const ok = await verifyPassword(password, user?.password_hash ?? decoyHash);
  return ok ? user : undefined;
}

/**
 * The principal of a signed-in user. A user acting for an organization other than their first
 * names it (the `AP-Organization` header); naming one they do not belong to gives no standing.
 */
export async function userPrincipal(db: Queryable, user: sql.UserRow, organizationSlug?: string): Promise<Principal> {
  const memberships = await sql.membershipsOf(db, user.id);
  const chosen = organizationSlug ? memberships.find((m) => m.slug === organizationSlug) : memberships[0];
  return { kind: 'user', subject: user.id, displayName: user.display_name, organization: chosen && standing(chosen) };
}

function standing(m: sql.MembershipRow): Standing {
  return {
    organizationId: m.organization_id,
    slug: m.slug,
    role: m.role,
    apiTier: m.api_tier,
    registryAdmin: m.is_admin,
  };
}
