import { randomBytes } from 'node:crypto';
import type { Clock } from '../../clock.ts';
import type { Database, Queryable } from '../../db/database.ts';
import { addMember, createAdminKey, createLocalUser } from '../../auth/index.ts';
import { applyAdagents, applyBrandJson, projectAdagents, projectBrandJson } from '../graph/index.ts';
import { entryOf, publishRegistryPolicy } from '../policies/index.ts';
import { demoOrganization, ensureDemoOrganization } from './deployment-agents.ts';
import * as sql from './sql.ts';
import { loadWorld, type World, type WorldDocument } from './world.ts';

export interface SeedOptions {
  /** Also creates an admin key of the operator's organization, returned once (no AP_ADMIN_KEY set). */
  createAdminKey?: boolean;
  /** Also creates the first user, who signs in to the dashboard; returned once with its password. */
  createFirstUser?: boolean;
  /** Another world (tests); the shipped one by default. */
  world?: World;
}

/** Who signs in to a demo registry's dashboard first. */
export interface FirstUser {
  email: string;
  password: string;
}

/** The first user's email (its password is made at random, and shown once). */
export const firstUserEmail = 'admin@demo.localhost';

export type SeedOutcome =
  | { seeded: false }
  | {
      seeded: true;
      publishers: number;
      /** brand.json files applied: houses and operators. */
      brandFiles: number;
      /** The registry's own policies published (their earlier versions first). */
      policies: number;
      /** Feed events the seed wrote. */
      events: number;
      /** The new admin key, when asked for: it exists nowhere else. */
      adminKey?: string;
      /** The first user, when asked for: its password exists nowhere else. */
      firstUser?: FirstUser;
    };

/**
 * Seeds the demo world into an empty registry through the crawler's own path (projection, then
 * apply, the same feed events), as if every demo domain had been crawled. Everything happens in
 * one transaction under an advisory lock: instances starting together on one PostgreSQL seed once,
 * and a seed that fails leaves nothing behind, so the next start tries again. A registry holding
 * anything is never touched.
 */
export async function seedDemo(db: Database, clock: Clock, options: SeedOptions = {}): Promise<SeedOutcome> {
  // Read and validated before the transaction: a bad file fails the start, loudly, naming itself.
  const world = options.world ?? loadWorld();
  return db.transaction(async (tx) => {
    await sql.lockSeeding(tx);
    if (await sql.hasData(tx)) return { seeded: false };
    const now = clock.now();
    let events = 0;
    // Operators first, so each property is created with its operator declarations; then the
    // earlier publisher files, which the current ones follow, dropping what they no longer declare (stale).
    for (const file of world.brands) events += await applyBrand(tx, file);
    for (const file of [...world.earlier, ...world.publishers]) events += await applyPublisher(tx, file, now);
    // Earlier versions first, so the current ones are the policies' next revisions: a history to pin.
    for (const document of [...world.earlierPolicies, ...world.policies]) {
      if ((await publishRegistryPolicy(tx, entryOf(document), 'pipeline:demo')).changed) events++;
    }
    // The organization this deployment's agents are enrolled under once the server listens (deployment-agents.ts).
    await ensureDemoOrganization(tx);
    const adminKey = options.createAdminKey ? (await createAdminKey(tx, 'demo registry')).key : undefined;
    const firstUser = options.createFirstUser ? await createFirstUser(tx) : undefined;
    return {
      seeded: true,
      publishers: world.publishers.length,
      brandFiles: world.brands.length,
      policies: world.policies.length,
      events,
      ...(adminKey ? { adminKey } : {}),
      ...(firstUser ? { firstUser } : {}),
    };
  });
}

/** An admin of the organization the deployment's agents are enrolled under: the dashboard shows them to it. */
async function createFirstUser(tx: Queryable): Promise<FirstUser> {
  const password = randomBytes(12).toString('base64url');
  const user = await createLocalUser(tx, { email: firstUserEmail, password, displayName: 'Demo admin' });
  await addMember(tx, demoOrganization.slug, user.id, 'admin');
  return { email: firstUserEmail, password };
}

async function applyPublisher(tx: Queryable, { domain, url, document }: WorldDocument, now: Date): Promise<number> {
  const projection = projectAdagents(domain, url, document);
  return (await applyAdagents(tx, projection, document, now)).events;
}

async function applyBrand(tx: Queryable, { domain, url, document }: WorldDocument): Promise<number> {
  return (await applyBrandJson(tx, domain, url, projectBrandJson(domain, document), document)).events;
}
