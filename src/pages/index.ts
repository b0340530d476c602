import type { FastifyPluginAsync } from 'fastify';
import { renderErrorsAsPages } from '../http/error-pages.ts';
import { registerPageAssets } from '../http/html.ts';
import formbody from '@fastify/formbody';
import { fetchThrough } from '../client/index.ts';
import type { SafeFetch } from '../net/safe-fetch.ts';
import type { OwnDeployment } from '../registry/agents/index.ts';
import { agentFetch } from './agent-fetch.ts';
import { apiReader } from './api.ts';
import { adagentsRoute } from './routes/adagents.ts';
import { agentRoutes } from './routes/agents.ts';
import { brandRoutes } from './routes/brands.ts';
import { checkRoute } from './routes/check.ts';
import { feedRoute } from './routes/feed.ts';
import { homeRoute } from './routes/home.ts';
import { operatorRoute } from './routes/operators.ts';
import { playgroundRoute } from './routes/playground.ts';
import { propertiesRoute } from './routes/properties.ts';
import { publisherRoutes } from './routes/publishers.ts';
import { searchRoute } from './routes/search.ts';

/**
 * The registry as people see it: server-rendered pages to browse brands, publishers, properties,
 * agents and operators, search, check an authorization, build and validate adagents.json, watch
 * the feed, and call agents in the playground. Each page reads the registry's own
 * API in this process (api.ts), so it shows what the API answers, through no second query path.
 * Encapsulated: its errors are pages, the API's stay JSON.
 */
export interface PagesOptions {
  /** The agents this deployment serves: the playground offers them, and calls them in process. */
  own: OwnDeployment;
  /** The deployment's SSRF-safe client: the playground calls any other agent through it. */
  fetcher: SafeFetch;
}

export const pagesPlugin: FastifyPluginAsync<PagesOptions> = async (app, { own, fetcher }) => {
  // The tools' forms; here only, as the API takes JSON alone.
  await app.register(formbody, { bodyLimit: 256 * 1024 });
  renderErrorsAsPages(app);
  // The root app's: every page of the server links them, the dashboard's and sign-in's too.
  registerPageAssets(app, ['site.css', 'feed.js', 'playground.js']);
  const api = apiReader(app);
  homeRoute(app, api);
  searchRoute(app, api);
  brandRoutes(app, api);
  publisherRoutes(app, api);
  propertiesRoute(app, api);
  agentRoutes(app, api);
  operatorRoute(app, api);
  checkRoute(app, api);
  adagentsRoute(app, api);
  feedRoute(app, api);
  const outside = fetchThrough(fetcher);
  playgroundRoute(app, {
    served: () => own.served(),
    credential: own.credential,
    fetch: (origin) =>
      agentFetch(
        app,
        (url) => url.origin === origin || own.served().some((agent) => new URL(agent.url).origin === url.origin),
        outside,
      ),
  });
};
