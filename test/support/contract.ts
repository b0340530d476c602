import { json, type Json } from './http.ts';
import type { TestEngine } from './engines.ts';
import { createApiKeyFor, seedOrganization } from './identity.ts';
import { startTestServer, type TestServer, type TestServerOptions } from './server.ts';

/**
 * The registry as the protocol's own registry client meets it: the demo world on a real server,
 * and requests sent as that client sends them (`Accept: application/json`, a bearer API key when
 * it has one, bodies as JSON). A contract test names the client method it stands for, sends the
 * exact method, path, parameter names and body that method sends, and asserts the fields it reads.
 */
export interface ContractRegistry {
  server: TestServer;
  /** An API key of an API-tier member organization, as a client configured with `apiKey` sends. */
  apiKey: string;
  /** That organization's slug. */
  organization: string;
  get(path: string, options?: { anonymous?: boolean }): Promise<ContractAnswer>;
  post(path: string, body: unknown, options?: { anonymous?: boolean }): Promise<ContractAnswer>;
  close(): Promise<void>;
}

export interface ContractAnswer {
  status: number;
  body: Json;
}

export async function startContractRegistry(
  engine: TestEngine,
  options: TestServerOptions = {},
): Promise<ContractRegistry> {
  const server = await startTestServer(engine, { ...options, env: { AP_DEMO: 'true', ...options.env } });
  const organization = await seedOrganization(server.db, { apiTier: true });
  const apiKey = await createApiKeyFor(server.db, organization.slug);
  const headers = (anonymous: boolean | undefined): Record<string, string> => ({
    accept: 'application/json',
    ...(anonymous ? {} : { authorization: `Bearer ${apiKey}` }),
  });
  // Documents that are not JSON (the OpenAPI YAML, /metrics) answer an empty body: their status is what counts here.
  const answer = async (res: Response): Promise<ContractAnswer> => ({
    status: res.status,
    body: /json/.test(res.headers.get('content-type') ?? '') ? await json(res) : (await res.text(), {}),
  });
  return {
    server,
    apiKey,
    organization: organization.slug,
    get: async (path, { anonymous } = {}) =>
      answer(await fetch(`${server.url}${path}`, { headers: headers(anonymous) })),
    post: async (path, body, { anonymous } = {}) =>
      answer(
        await fetch(`${server.url}${path}`, {
          method: 'POST',
          headers: { ...headers(anonymous), 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }),
      ),
    close: () => server.close(),
  };
}
