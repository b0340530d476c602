import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import type { NotifiedCache } from '../db/notified-cache.ts';
import {
  configuredCredentials,
  type ConfiguredCredential,
  type ConfiguredCredentials,
} from './configured-credentials.ts';
import { metadataUrlOf, serveResourceMetadata } from './oauth/metadata.ts';

/** An agent's endpoints that are protected resources of their own: a token names one in its audience. */
export type AgentEndpoint = 'mcp' | 'a2a';

/** An agent this deployment serves, as the guard and the authorization server see it. */
export interface AgentResource {
  name: string;
  /** Where it is mounted, e.g. `/sales` (its MCP endpoint is `/sales/mcp`). */
  path: string;
  credentials: ConfiguredCredentials;
}

/**
 * The agents besides the registry's own API, each a protected resource (RFC 8707, RFC 9728):
 * `<base><path>/mcp` and `<base><path>/a2a` are its resource identifiers, both accepted at all of
 * its endpoints (it is one agent with one set of tasks), and each has its metadata at its
 * well-known path. A token for another agent, or for the registry's API only, is refused.
 */
export class AgentResources {
  private readonly agents: AgentResource[] = [];
  private readonly app: FastifyInstance;
  private readonly base: () => string;
  private readonly issuer: () => string;
  private readonly db: Database;
  private readonly cache: NotifiedCache;

  constructor(app: FastifyInstance, base: () => string, issuer: () => string, db: Database, cache: NotifiedCache) {
    this.app = app;
    this.base = base;
    this.issuer = issuer;
    this.db = db;
    this.cache = cache;
  }

  /** Declares an agent; call before its routes are added, so the guard sees them as its own. */
  add(agent: { name: string; path: string; credentials?: readonly ConfiguredCredential[] }): void {
    if (this.agents.some((a) => a.path === agent.path)) throw new Error(`two agents are mounted at ${agent.path}`);
    this.agents.push({
      name: agent.name,
      path: agent.path,
      credentials: configuredCredentials(agent.name, agent.credentials ?? [], this.db, this.cache),
    });
    for (const endpoint of ['mcp', 'a2a'] as const) {
      serveResourceMetadata(
        this.app,
        `${agent.path}/${endpoint}`,
        `${agent.name} agent (${endpoint === 'mcp' ? 'MCP' : 'A2A'})`,
        () => this.resource(agent.path, endpoint),
        this.issuer,
        () => `${this.base()}${agent.path}/.well-known/agent-card.json`,
      );
    }
  }

  /** The agent a route (by its URL pattern) belongs to, and which of its resources it serves. */
  routeOf(url: string): { agent: AgentResource; endpoint: AgentEndpoint } | undefined {
    // The longest path wins, so an agent mounted inside another's path is never taken for it.
    const agent = this.agents
      .filter((a) => url.startsWith(`${a.path}/`))
      .sort((a, b) => b.path.length - a.path.length)[0];
    return agent && { agent, endpoint: url === `${agent.path}/a2a` ? 'a2a' : 'mcp' };
  }

  /** The exact URL of an agent's endpoint: what its tokens name as their audience. */
  resource(path: string, endpoint: AgentEndpoint): string {
    return `${this.base()}${path}/${endpoint}`;
  }

  /** Every audience a token for `agent` may carry. */
  audiences(agent: AgentResource): string[] {
    return [this.resource(agent.path, 'mcp'), this.resource(agent.path, 'a2a')];
  }

  metadataUrl(agent: AgentResource, endpoint: AgentEndpoint): string {
    return metadataUrlOf(this.resource(agent.path, endpoint));
  }

  /** Whether `resource` (a resource indicator sent to the authorization server) names one of these agents. */
  has(resource: string): boolean {
    return this.agents.some((a) => this.audiences(a).includes(resource));
  }
}
