import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ClientFactory,
  ClientFactoryOptions,
  JsonRpcTransportFactory,
  type Client as A2aClient,
} from '@a2a-js/sdk/client';
import type { Tenant } from '../../src/agents/runtime/index.ts';
import { asAdmin } from './server.ts';
import { skillRequest } from '../../src/client/agents/index.ts';

/**
 * A tenant with test tasks, counting how often each mutating one really ran. `held(name)` holds
 * the next build_thing run for `name` once it starts: it resolves then, with the function that
 * lets the run finish, so a test sees the task working without guessing how long it takes.
 */
export function testTenant() {
  const executions = { create_widget: 0, flaky_create: 0, build_thing: 0 };
  const holds = new Map<string, (release: () => void) => void>();
  const held = (name: string) => new Promise<() => void>((started) => holds.set(name, started));
  // Names flaky_create has failed for: each test passes its own name, so none depends on another's run.
  const failedOnce = new Set<string>();
  const tenant: Tenant = {
    name: 'test',
    path: '/test',
    description: 'Test tasks for the agent runtime.',
    protocols: ['media_buy'],
    tasks: [
      {
        name: 'echo',
        description: 'Answers the message it was given.',
        input: {
          type: 'object',
          properties: { message: { type: 'string', maxLength: 100 } },
          required: ['message'],
          additionalProperties: false,
        },
        mutates: false,
        handler: async (args) => ({ message: args['message'] }),
      },
      {
        name: 'create_widget',
        description: 'Creates a widget (mutating).',
        input: {
          type: 'object',
          properties: {
            account: { type: 'object', properties: { account_id: { type: 'string' } }, required: ['account_id'] },
            name: { type: 'string' },
            delay_ms: { type: 'integer', minimum: 0, maximum: 2000 },
            push_notification_config: { type: 'object' },
          },
          required: ['account', 'name'],
        },
        mutates: true,
        handler: async (args) => {
          executions.create_widget++;
          if (typeof args['delay_ms'] === 'number') await sleep(args['delay_ms']);
          return { widget_id: randomUUID(), name: args['name'] };
        },
      },
      {
        name: 'build_thing',
        description: 'Builds a thing, taking its time (long-running).',
        input: {
          type: 'object',
          properties: { name: { type: 'string' }, push_notification_config: { type: 'object' } },
          required: ['name'],
        },
        mutates: true,
        longRunning: true,
        handler: async (args) => {
          const started = holds.get(String(args['name']));
          if (started) {
            holds.delete(String(args['name']));
            await new Promise<void>((release) => started(release));
          }
          executions.build_thing++;
          return { thing_id: randomUUID(), name: args['name'] };
        },
      },
      {
        name: 'flaky_create',
        description:
          'Fails the first time it runs for a name, as a transient failure of its database (a serialization failure).',
        input: { type: 'object', properties: { name: { type: 'string' } } },
        mutates: true,
        handler: async (args) => {
          executions.flaky_create++;
          const name = String(args['name']);
          if (!failedOnce.has(name)) {
            failedOnce.add(name);
            // As a database that refused the transaction fails a task: a retry may succeed. (One out
            // of reach answers SERVICE_UNAVAILABLE instead: failure-recovery.test.ts.)
            throw Object.assign(new Error('first attempt fails: could not serialize access due to concurrent update'), {
              code: '40001',
            });
          }
          return { created: name };
        },
      },
    ],
  };
  return { tenant, executions, held };
}

/** The official MCP SDK client, connected over Streamable HTTP to `<base><path>/mcp`. */
export async function mcpClient(
  base: string,
  path = '/test',
  headers: Record<string, string> = asAdmin,
): Promise<Client> {
  const client = new Client({ name: 'ap-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}${path}/mcp`), { requestInit: { headers } }));
  return client;
}

/** The official A2A SDK client for the tenant at `<base><path>`, sending the credential on every call. */
export async function a2aClient(
  base: string,
  path = '/test',
  headers: Record<string, string> = asAdmin,
): Promise<A2aClient> {
  const authenticated: typeof fetch = (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl: authenticated })],
    }),
  );
  return factory.createFromUrl(base, `${path}/.well-known/agent-card.json`);
}

/** Sends a message naming a skill and its parameters; resolves to the answer, a Message or (for a task that goes on) a Task. */
export function sendSkill(
  client: A2aClient,
  skill: string,
  parameters: Record<string, unknown>,
): ReturnType<A2aClient['sendMessage']> {
  return client.sendMessage(skillRequest(skill, parameters));
}

/** Sends a message naming a skill and its parameters; returns the data of the answer's first part. */
export async function callSkill(
  client: A2aClient,
  skill: string,
  parameters: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const answer = await sendSkill(client, skill, parameters);
  if (!('parts' in answer)) throw new Error(`expected a message, got a task: ${JSON.stringify(answer)}`);
  const content = answer.parts[0]?.content;
  if (content?.$case !== 'data') throw new Error(`expected a data part, got ${JSON.stringify(answer.parts)}`);
  return content.value as Record<string, unknown>;
}
