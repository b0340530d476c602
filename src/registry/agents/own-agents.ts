import { isIP } from 'node:net';
import { isLoopbackHost } from '../../net/address-policy.ts';
import { parseAllowList } from '../../net/allow-list.ts';
import { SafeFetch } from '../../net/safe-fetch.ts';
import type { AgentType } from './agent-types.ts';
import type { Enrollment } from './enrollment.ts';

/** An agent this process serves (the test deployment's tenants), at the URL it is reached at. */
export interface ServedAgent {
  url: string;
  name: string;
  description: string;
  /** The protocols it speaks (`media_buy`, `signals`, `creative`, ...). */
  protocols: readonly string[];
}

/** The agents served beside the registry, as the catalog needs them: asked once the server listens. */
export interface OwnDeployment {
  served(): ServedAgent[];
  /** The address the server listens on; undefined before it does. */
  listening(): { address: string; port: number } | undefined;
  /** The bearer credential its agents accept (the deployment's test credential), if any. */
  credential: string | undefined;
}

/** The catalog type of an agent speaking a protocol (the first one it speaks that has one). */
const typeOfProtocol: Record<string, AgentType> = {
  media_buy: 'sales',
  signals: 'signals',
  creative: 'creative',
  governance: 'governance',
  brand: 'brand',
};

/**
 * This deployment's agents as the catalog enrolls them. An agent is enrolled on a domain name,
 * never an IP address (agent-url.ts), and `npm start` listens on 127.0.0.1: a loopback address
 * becomes `localhost`, which names the same machine, which the agents answer to, and which
 * enrollment accepts for this deployment's own agents alone. Agents on
 * another IP address (HOST set, PUBLIC_URL not) cannot be enrolled and are left out (`skipped`).
 */
export function ownEnrollments(own: OwnDeployment): { enrollments: Enrollment[]; skipped: string[] } {
  const enrollments: Enrollment[] = [];
  const skipped: string[] = [];
  for (const agent of own.served()) {
    const url = catalogUrl(agent.url);
    const type = agent.protocols.map((p) => typeOfProtocol[p]).find((t) => t !== undefined);
    if (!url || !type) {
      skipped.push(agent.url);
      continue;
    }
    enrollments.push({ agent_url: url, type, name: agent.name, description: agent.description, visibility: 'public' });
  }
  return { enrollments, skipped };
}

function catalogUrl(served: string): string | undefined {
  const url = new URL(served);
  if (isLoopbackHost(url.hostname)) url.hostname = 'localhost';
  else if (isIP(url.hostname.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  return url.href;
}

/**
 * What the prober needs for this deployment's own agents, and for no other: the credential they
 * ask on every call, and (when they are enrolled on `localhost`) a fetch client allowed to reach
 * exactly this server's listening address, which the SSRF-safe client refuses to anyone else.
 */
export class OwnAgentAccess {
  readonly #own: OwnDeployment;
  #urls: Set<string> | undefined;
  #fetcher: SafeFetch | undefined;

  constructor(own: OwnDeployment) {
    this.#own = own;
  }

  /** Whether the catalog URL is one of this deployment's agents (known once the server listens). */
  isOwn(agentUrl: string): boolean {
    if (!this.#urls && this.#own.listening())
      this.#urls = new Set(ownEnrollments(this.#own).enrollments.map((e) => e.agent_url));
    return this.#urls?.has(agentUrl) ?? false;
  }

  authorization(agentUrl: string): string | undefined {
    return this.#own.credential && this.isOwn(agentUrl) ? `Bearer ${this.#own.credential}` : undefined;
  }

  fetcherFor(agentUrl: string): SafeFetch | undefined {
    const listening = this.#own.listening();
    if (!listening || new URL(agentUrl).hostname !== 'localhost' || !this.isOwn(agentUrl)) return undefined;
    if (!this.#fetcher) {
      // Listening on every interface includes loopback.
      const address =
        listening.address === '0.0.0.0' ? '127.0.0.1' : listening.address === '::' ? '::1' : listening.address;
      this.#fetcher = new SafeFetch({
        allow: parseAllowList(`localhost=${address.includes(':') ? `[${address}]` : address}:${listening.port}`),
      });
    }
    return this.#fetcher;
  }

  async close(): Promise<void> {
    await this.#fetcher?.close();
  }
}
