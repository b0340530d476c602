import type { Database } from '../db/database.ts';
import {
  addMember,
  createLocalUser,
  createOrganization,
  listOrganizations,
  type Role,
  createKey,
  keyById,
  listKeys,
  revokeKey,
  organizationBySlug,
} from '../auth/index.ts';
import { ApError } from '../protocol/errors.ts';
import { brandTenant, revokeGrant, rotate, signatureLifetimeSeconds, type SigningAlg } from '../agents/index.ts';
import { systemClock } from '../clock.ts';
import { normalizeDomain } from '../protocol/domain.ts';
import type { Crawler } from '../registry/crawler/index.ts';
import {
  allAgentsShown,
  enrollAgent,
  operatorFor,
  removeAgent,
  type AgentType,
  type EnrollmentContext,
} from '../registry/agents/index.ts';

/**
 * What some commands need beyond the database, built only when one asks: the server hands over
 * its own (its crawler uses its fetch client), the CLI builds them from the configuration.
 */
export interface AdminServices {
  crawler(): Crawler;
  /** What enrolling an agent needs (the server's own, so the first probe is scheduled as it would be). */
  enrollment(): EnrollmentContext;
}

/**
 * The operator's commands, one function each. The CLI runs them against the database directly,
 * or, when a running server holds an embedded database, through that server's control socket:
 * either way the same code does the work.
 */
export const adminCommands = {
  async 'orgs.create'(db: Database, args: { slug: string; name?: string; apiTier?: boolean; admin?: boolean }) {
    return createOrganization(db, args);
  },
  async 'orgs.list'(db: Database, _args: object) {
    return listOrganizations(db);
  },
  async 'users.create'(
    db: Database,
    args: { email: string; password: string; name?: string; org?: string; role?: Role },
  ) {
    return db.transaction(async (tx) => {
      const user = await createLocalUser(tx, { email: args.email, password: args.password, displayName: args.name });
      if (args.org) await addMember(tx, args.org, user.id, args.role ?? 'member');
      const { password_hash: _hash, ...shown } = user;
      return shown;
    });
  },
  async 'keys.create'(db: Database, args: { org: string; name: string; role?: Role }) {
    return createKey(db, { organizationSlug: args.org, name: args.name, role: args.role });
  },
  async 'keys.revoke'(db: Database, args: { id: string }) {
    if (!/^[0-9a-f-]{36}$/i.test(args.id))
      throw new ApError('invalid_request', `"${args.id}" is not a key id; \`ap keys list\` shows them.`);
    const revoked = await revokeKey(db, args.id);
    if (revoked) return revoked;
    const key = await keyById(db, args.id);
    throw key
      ? new ApError('conflict', `Key ${args.id} was already revoked at ${key.revoked_at?.toISOString()}.`)
      : new ApError('not_found', `No key has the id ${args.id}.`);
  },
  async 'keys.list'(db: Database, args: { org?: string }) {
    if (!args.org) return listKeys(db);
    const org = await organizationBySlug(db, args.org);
    if (!org) throw new ApError('not_found', `No organization has the slug "${args.org}".`);
    return listKeys(db, org.id);
  },
  /** Retires the agents' current signing key of a purpose (still published for its signatures' lifetime) and makes a new one. */
  async 'signing-keys.rotate'(
    db: Database,
    args: { alg: SigningAlg; secret?: string; purpose?: 'webhook-signing' | 'governance-signing' },
  ) {
    const key = await rotate(
      db,
      { alg: args.alg, secret: args.secret, clock: systemClock, publishWindowSeconds: signatureLifetimeSeconds },
      args.purpose === 'governance-signing' ? 'governance-signing' : 'webhook-signing',
    );
    return { kid: key.kid, alg: key.alg };
  },
  /** The rights holder revokes a grant of the brand agent (some of its uses, or all); the buyer is sent a signed notice. */
  async 'rights.revoke'(db: Database, args: { grant: string; reason: string; uses?: string[]; effective?: string }) {
    const effectiveAt = args.effective === undefined ? undefined : new Date(args.effective);
    if (effectiveAt && Number.isNaN(effectiveAt.getTime()))
      throw new ApError('validation_failed', `--effective ${args.effective} is not a date and time.`);
    return revokeGrant(db, brandTenant, {
      grantId: args.grant,
      reason: args.reason,
      ...(args.uses ? { uses: args.uses as Parameters<typeof revokeGrant>[2]['uses'] } : {}),
      ...(effectiveAt ? { effectiveAt } : {}),
      now: systemClock.now(),
    });
  },
  /** Crawls one domain now, as the queue worker would, and says what came of it. */
  async 'crawl.domain'(_db: Database, args: { domain: string }, services: AdminServices) {
    return services.crawler().crawl(normalizeDomain(args.domain));
  },
  /** Enrolls an agent for an organization, as the registry's operator (no ownership proof asked). */
  async 'agents.enroll'(
    db: Database,
    args: {
      org: string;
      url: string;
      type: AgentType;
      name: string;
      description?: string;
      visibility?: 'public' | 'members_only' | 'private';
    },
    services: AdminServices,
  ) {
    const org = await organizationBySlug(db, args.org);
    if (!org) throw new ApError('not_found', `No organization has the slug "${args.org}".`);
    return enrollAgent(services.enrollment(), operatorFor(org), {
      agent_url: args.url,
      type: args.type,
      name: args.name,
      description: args.description ?? null,
      visibility: args.visibility ?? 'public',
    });
  },
  async 'agents.list'(db: Database, args: { org?: string }) {
    return allAgentsShown(db, args.org);
  },
  async 'agents.remove'(db: Database, args: { url: string }, services: AdminServices) {
    return removeAgent(services.enrollment(), operatorFor(undefined), args.url);
  },
} satisfies Record<string, (db: Database, args: never, services: AdminServices) => Promise<unknown>>;

export type AdminCommand = keyof typeof adminCommands;
export type AdminArgs<C extends AdminCommand> = Parameters<(typeof adminCommands)[C]>[1];

/** Runs one admin command in a session (the CLI's); through a socket the result has been through JSON. */
export type AdminRunner = <C extends AdminCommand>(command: C, args: AdminArgs<C>) => Promise<unknown>;

export function isAdminCommand(name: string): name is AdminCommand {
  return Object.hasOwn(adminCommands, name);
}

export async function runAdminCommand<C extends AdminCommand>(
  db: Database,
  command: C,
  args: AdminArgs<C>,
  services: AdminServices,
): Promise<unknown> {
  return (adminCommands[command] as (db: Database, args: AdminArgs<C>, services: AdminServices) => Promise<unknown>)(
    db,
    args,
    services,
  );
}
