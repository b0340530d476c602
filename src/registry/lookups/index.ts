import fp from 'fastify-plugin';
import type { AppContext } from '../../context.ts';
import { graphSnapshot } from '../graph/index.ts';
import { CatalogMembers } from './catalog-members.ts';
import { IndexAnswers } from './index-answers.ts';
import { IndexFollower } from './index-follower.ts';
import { checkRoutes } from './routes/check.ts';
import { expandRoute } from './routes/expand.ts';
import { lookupAgentDomainsRoute } from './routes/lookup-agent-domains.ts';
import { lookupDomainRoute } from './routes/lookup-domain.ts';
import { lookupPropertyRoute } from './routes/lookup-property.ts';
import { productAuthorizationRoute } from './routes/product-authorization.ts';
import { lookupSchemas } from './schemas/index.ts';

export { AuthorizationIndex } from './authorization-index.ts';
export { covers } from './coverage.ts';
export { agentDomains, type AgentDomain } from './agent-domains.ts';
export type { CatalogMember, CatalogMembers } from './catalog-members.ts';
export { authorizationStatus, checkAuthorization, type Verdict } from './check.ts';
export type { IndexFollower } from './index-follower.ts';
export type { IndexedCollection, IndexedGrant, IndexedProperty, IndexedPublisher } from './index-records.ts';
export { grantSummary, propertySummary } from './render.ts';
export { Declaration as OperatorDeclaration } from './schemas/index.ts';
export { liveIndex } from './routes/live-index.ts';
export { compare, firstAfter } from './sorted-domains.ts';
export { lookupsSettings, type LookupsSettings } from './settings.ts';

/** At most this many characters of kept answers (about 64 MiB), however many entries that is. */
const answerCacheChars = 64 * 1024 * 1024;

export interface LookupsOptions {
  ctx: AppContext;
}

/**
 * Lookups and the real-time authorization check (spec section 4), answered from this process's
 * in-memory authorization index, which follows the change feed. Registers after the feed plugin:
 * it subscribes to the feed's hub. `/readyz` answers 503 until the index has caught up.
 */
export const lookupsPlugin = fp<LookupsOptions>(
  async (app, { ctx }) => {
    for (const schema of lookupSchemas) app.addSchema(schema);
    const follower = new IndexFollower({ db: ctx.db, hub: app.feedHub, sections: graphSnapshot, log: app.log });
    app.readiness.add('authorization index', () =>
      follower.live ? undefined : 'still loading the registry graph and catching up with the change feed',
    );
    // The two per-impression GETs keep their serialized answers until the index changes.
    const answers = new IndexAnswers<string>({
      entries: ctx.config.lookupCacheEntries,
      size: answerCacheChars,
      sizeOf: (body, url) => body.length + url.length,
    });
    // Fed by the agent catalog as it reads enrollments; the domain lookup names members from it.
    const members = new CatalogMembers();
    checkRoutes(app, follower, answers, ctx.clock);
    lookupDomainRoute(app, follower, answers, members);
    lookupPropertyRoute(app, follower);
    lookupAgentDomainsRoute(app, follower);
    productAuthorizationRoute(app, follower, ctx.clock);
    expandRoute(app, follower, ctx.clock);
    // After the feed's own onReady (registration order): its hub listens before the index reads.
    app.addHook('onReady', async () => follower.start());
    app.addHook('preClose', async () => follower.close());
    app.decorate('authorizationIndex', follower);
    app.decorate('catalogMembers', members);
  },
  { name: 'lookups', dependencies: ['feed'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** This process's authorization index and where it stands in the feed (tests wait on it). */
    authorizationIndex: IndexFollower;
    /** Which member organization enrolled each publicly listed agent (the agent catalog keeps it current). */
    catalogMembers: CatalogMembers;
  }
}
