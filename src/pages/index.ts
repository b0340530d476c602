import type { FastifyPluginAsync } from 'fastify';
import { renderErrorsAsPages } from '../http/error-pages.ts';
import { registerPageAssets } from '../http/html.ts';
import formbody from '@fastify/formbody';
import { apiReader } from './api.ts';
import { adagentsRoute } from './routes/adagents.ts';
import { agentRoutes } from './routes/agents.ts';
import { brandRoutes } from './routes/brands.ts';
import { checkRoute } from './routes/check.ts';
import { feedRoute } from './routes/feed.ts';
import { homeRoute } from './routes/home.ts';
import { operatorRoute } from './routes/operators.ts';
import { propertiesRoute } from './routes/properties.ts';
import { publisherRoutes } from './routes/publishers.ts';
import { searchRoute } from './routes/search.ts';

/**
 * The registry as people see it: server-rendered pages to browse brands, publishers, properties,
 * agents and operators, search, and check an authorization. Each page reads the registry's own
 * API in this process (api.ts), so it shows what the API answers, through no second query path.
 * Encapsulated: its errors are pages, the API's stay JSON.
 */
export const pagesPlugin: FastifyPluginAsync = async (app) => {
  // The tools' forms; here only, as the API takes JSON alone.
  await app.register(formbody, { bodyLimit: 256 * 1024 });
  renderErrorsAsPages(app);
  // The root app's: every page of the server links them, the dashboard's and sign-in's too.
  registerPageAssets(app, ['site.css', 'feed.js']);
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
};
