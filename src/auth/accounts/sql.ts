import type { Queryable } from '../../db/database.ts';

/** The SQL of organizations, users and memberships. */

export type Role = 'member' | 'admin';

export interface OrganizationRow {
  id: string;
  slug: string;
  name: string;
  api_tier: boolean;
  is_admin: boolean;
  created_at: Date;
}

export interface UserRow {
  id: string;
  issuer: string;
  subject: string;
  email: string | null;
  display_name: string;
  password_hash: string | null;
}

export interface MembershipRow {
  organization_id: string;
  slug: string;
  name: string;
  api_tier: boolean;
  is_admin: boolean;
  role: Role;
}

const ORG = 'id, slug, name, api_tier, is_admin, created_at';
const USER = 'id, issuer, subject, email, display_name, password_hash';

export async function insertOrganization(
  db: Queryable,
  org: Omit<OrganizationRow, 'created_at'>,
): Promise<OrganizationRow | undefined> {
  const [row] = await db.query<OrganizationRow>(
    `insert into organizations (id, slug, name, api_tier, is_admin) values ($1, $2, $3, $4, $5)
     on conflict (slug) do nothing returning ${ORG}`,
    [org.id, org.slug, org.name, org.api_tier, org.is_admin],
  );
  return row;
}

export async function organizationBySlug(db: Queryable, slug: string): Promise<OrganizationRow | undefined> {
  const [row] = await db.query<OrganizationRow>(`select ${ORG} from organizations where slug = $1`, [slug]);
  return row;
}

export async function listOrganizations(db: Queryable): Promise<OrganizationRow[]> {
  return db.query<OrganizationRow>(`select ${ORG} from organizations order by slug`);
}

export async function insertUser(db: Queryable, user: UserRow): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(
    `insert into users (id, issuer, subject, email, display_name, password_hash) values ($1, $2, $3, $4, $5, $6)
     on conflict do nothing returning ${USER}`,
    [user.id, user.issuer, user.subject, user.email, user.display_name, user.password_hash],
  );
  return row;
}

/** Finds or creates the user an issuer vouches for; concurrent first sights create one row. */
export async function upsertExternalUser(db: Queryable, user: UserRow): Promise<UserRow> {
  const [row] = await db.query<UserRow>(
    `insert into users (id, issuer, subject, email, display_name) values ($1, $2, $3, $4, $5)
     on conflict (issuer, subject) do update set email = coalesce(excluded.email, users.email)
     returning ${USER}`,
    [user.id, user.issuer, user.subject, user.email, user.display_name],
  );
  return row!;
}

export async function userById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(`select ${USER} from users where id = $1`, [id]);
  return row;
}

export async function userBySubject(db: Queryable, issuer: string, subject: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(`select ${USER} from users where issuer = $1 and subject = $2`, [
    issuer,
    subject,
  ]);
  return row;
}

export async function localUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await db.query<UserRow>(
    `select ${USER} from users where lower(email) = lower($1) and password_hash is not null`,
    [email],
  );
  return row;
}

export async function upsertMembership(
  db: Queryable,
  organizationId: string,
  userId: string,
  role: Role,
): Promise<void> {
  await db.query(
    `insert into memberships (organization_id, user_id, role) values ($1, $2, $3)
     on conflict (organization_id, user_id) do update set role = excluded.role`,
    [organizationId, userId, role],
  );
}

/** A user's organizations, oldest membership first (the first is their default organization). */
export async function membershipsOf(db: Queryable, userId: string): Promise<MembershipRow[]> {
  return db.query<MembershipRow>(
    `select o.id as organization_id, o.slug, o.name, o.api_tier, o.is_admin, m.role
       from memberships m join organizations o on o.id = m.organization_id
      where m.user_id = $1 order by m.created_at, o.slug`,
    [userId],
  );
}
