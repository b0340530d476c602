import type { FastifyBaseLogger, FastifyPluginAsync } from 'fastify';
import type { Clock } from '../../clock.ts';
import type { Queryable } from '../../db/database.ts';
import type { Readiness } from '../../http/health.ts';
import type { FeedHub } from '../feed/index.ts';
import { graphSnapshot } from '../graph/index.ts';
import { CatalogMembers } from './catalog-members.ts';
import { IndexAnswers } from './index-answers.ts';
import { IndexFollower } from './index-follower.ts';
import type { IndexSource } from './index-source.ts';
import { checkRoutes } from './routes/check.ts';
import { expandRoute } from './routes/expand.ts';
import { lookupAgentDomainsRoute } from './routes/lookup-agent-domains.ts';
import { lookupDomainRoute } from './routes/lookup-domain.ts';
import { lookupPropertyRoute } from './routes/lookup-property.ts';
import { productAuthorizationRoute } from './routes/product-authorization.ts';

export { AuthorizationIndex } from './authorization-index.ts';
export { covers } from './coverage.ts';
export { agentDomains, type AgentDomain } from './agent-domains.ts';
export { CatalogMembers, type CatalogMember } from './catalog-members.ts';
export { authorizationStatus, checkAuthorization, type Verdict } from './check.ts';
export type { IndexFollower } from './index-follower.ts';
export { FeedPosition, type IndexSource } from './index-source.ts';
export type { IndexedCollection, IndexedGrant, IndexedProperty, IndexedPublisher } from './index-records.ts';
export { grantSummary, propertySummary } from './render.ts';
export { Declaration as OperatorDeclaration } from './schemas/index.ts';
export { liveIndex } from './routes/live-index.ts';
export { indexReads } from './index-store.ts';
export { isoStamps, keptStampedAnswer } from './routes/answer-from-memory.ts';
export type { IndexAnswers } from './index-answers.ts';
export { checkPath } from './routes/check.ts';
export { lookupSchemas } from './schemas/index.ts';
export { compare, firstAfter } from './sorted-domains.ts';
export { lookupsSettings, type LookupsSettings } from './settings.ts';

/** At most this many characters of kept answers (about 64 MiB), however many entries that is. */
const answerCacheChars = 64 * 1024 * 1024;

/** What the lookups offer the capabilities that answer from the registry graph. */
export interface AuthorizationIndexService {
  /** This process's authorization index, following the change feed (where it stands, and the index itself). */
  index: IndexFollower;
  /** Which member organization enrolled each publicly listed agent (the agent catalog keeps it current). */
  members: CatalogMembers;
}

/** Builds the authorization index over the feed's hub; the lookups plugin starts it once the app is ready. */
export function createAuthorizationIndex(parts: {
  db: Queryable;
  hub: FeedHub;
  log: FastifyBaseLogger;
}): AuthorizationIndexService {
  return { index: new IndexFollower({ ...parts, sections: graphSnapshot }), members: new CatalogMembers() };
}

/** The kept answers of the per-impression GETs, until the index changes. */
export function lookupAnswers(cacheEntries: number): IndexAnswers<string> {
  return new IndexAnswers<string>({
    entries: cacheEntries,
    size: answerCacheChars,
    sizeOf: (body, url) => body.length + url.length,
  });
}

export interface LookupsOptions {
  clock: Clock;
  /** How many answers of the per-impression GETs are kept (LOOKUP_CACHE_ENTRIES). */
  cacheEntries: number;
  /** Where they are kept, when the caller reads them too (a mirror's front); else the plugin's own. */
  answers?: IndexAnswers<string>;
  /** The authorization index: this registry's, or an upstream's in a mirror. */
  index: IndexSource;
  members: CatalogMembers;
  /** `/readyz` waits for the index to catch up. */
  readiness: Readiness;
}

/**
 * Lookups and the real-time authorization check (spec section 4), answered from this process's
 * in-memory authorization index, which follows the change feed. Registers after the feed plugin:
 * the index reads once the feed's hub listens. `/readyz` answers 503 until the index has caught up.
 */
export const lookupsPlugin: FastifyPluginAsync<LookupsOptions> = async (
  app,
  { clock, cacheEntries, answers: kept, index, members, readiness },
) => {
  readiness.add('authorization index', () =>
    index.live ? undefined : 'still loading the registry graph and catching up with the change feed',
  );
  void index.until((follower) => follower.live).then(() => readiness.changed());
  // The two per-impression GETs keep their serialized answers until the index changes.
  const answers = kept ?? lookupAnswers(cacheEntries);
  checkRoutes(app, index, answers, clock);
  lookupDomainRoute(app, index, answers, members);
  lookupPropertyRoute(app, index);
  lookupAgentDomainsRoute(app, index);
  productAuthorizationRoute(app, index, clock);
  expandRoute(app, index, clock);
  // After the feed's own onReady (registration order): its hub listens before the index reads.
  app.addHook('onReady', async () => index.start());
  app.addHook('preClose', async () => index.close());
};
