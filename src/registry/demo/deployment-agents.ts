import type { Database, Queryable } from '../../db/database.ts';
import { createOrganization, organizationBySlug } from '../../auth/index.ts';
import { ApError } from '../../protocol/errors.ts';
import {
  allAgentsShown,
  enrollAgent,
  operatorFor,
  ownEnrollments,
  removeAgent,
  type EnrollmentContext,
  type OwnDeployment,
} from '../agents/index.ts';

/** The organization the demo enrolls this deployment's agents under. */
export const demoOrganization = { slug: 'ap-test-deployment', name: 'AP test deployment' };

/** Made with the demo world (seed.ts), in its transaction: only a demo registry has it. */
export async function ensureDemoOrganization(tx: Queryable): Promise<void> {
  if (!(await organizationBySlug(tx, demoOrganization.slug))) await createOrganization(tx, demoOrganization);
}

export type DeploymentAgentsOutcome =
  | { demo: false }
  | {
      demo: true;
      /** Newly enrolled now. */
      enrolled: string[];
      /** Enrolled already (by an earlier start, or another instance meanwhile). */
      kept: string[];
      /** The demo organization's agents this deployment no longer serves (its address changed). */
      removed: string[];
      /** Served, but on an IP address other than loopback: not enrollable (set PUBLIC_URL). */
      skipped: string[];
    };

/**
 * Makes the demo organization's catalog entries this deployment's agents, once the server listens
 * (their URL is known then): enrolls those missing, as the registry's operator (no ownership
 * proof), and removes those it no longer serves. Each enrollment is its own transaction and a URL
 * is enrolled once, so instances starting together, or a second start, enroll nothing twice: a
 * conflict is an agent already there. A registry the demo did not seed (no demo organization) is
 * left alone.
 */
export async function enrollDeploymentAgents(
  db: Database,
  enrollment: EnrollmentContext,
  own: OwnDeployment,
): Promise<DeploymentAgentsOutcome> {
  const org = await organizationBySlug(db, demoOrganization.slug);
  if (!org) return { demo: false };
  const operator = operatorFor(org);
  const { enrollments, skipped } = ownEnrollments(own);
  const outcome = {
    demo: true as const,
    enrolled: [] as string[],
    kept: [] as string[],
    removed: [] as string[],
    skipped,
  };
  for (const agent of enrollments) {
    try {
      outcome.enrolled.push((await enrollAgent(enrollment, operator, agent, { ownDeployment: true })).agent_url);
    } catch (err) {
      if (!(err instanceof ApError && err.code === 'conflict')) throw err;
      outcome.kept.push(agent.agent_url);
    }
  }
  const served = new Set(enrollments.map((e) => e.agent_url));
  for (const agent of await allAgentsShown(db, org.slug)) {
    if (served.has(agent.agent_url)) continue;
    try {
      outcome.removed.push((await removeAgent(enrollment, operator, agent.agent_url)).url);
    } catch (err) {
      // Another instance removed it first.
      if (!(err instanceof ApError && err.code === 'not_found')) throw err;
    }
  }
  return outcome;
}
